import { get } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { baseUrl, call, problemType, tokenFor } from '../support/api.ts';

describe('HTTP conventions', () => {
  it('answers unknown paths with a problem-document 404', async () => {
    const response = await call('GET', '/api/v2/no-such-thing');

    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect(response.body).toMatchObject({ type: problemType('not-found'), status: 404 });
  });

  it('answers a wrong method with a problem-document 405 and an Allow header', async () => {
    const response = await call('PUT', '/api/v2/areas');

    expect(response.status).toBe(405);
    expect(response.body.type).toEqual(problemType('method-not-allowed'));
    expect(response.headers.get('allow')).toBe('GET, POST');
  });

  it('sends request-id on every answer and keeps an incoming correlation-id', async () => {
    const token = await tokenFor('acme-admin');

    const ok = await call('GET', '/api/v2/areas', { token, headers: { 'correlation-id': 'trace-abc-123' } });
    const failed = await call('GET', '/api/v2/areas', { headers: { 'correlation-id': 'trace-def-456' } });
    const unknown = await call('GET', '/nowhere', { headers: { 'correlation-id': 'trace-ghi-789' } });

    expect(ok.headers.get('correlation-id')).toBe('trace-abc-123');
    expect(failed.headers.get('correlation-id')).toBe('trace-def-456');
    expect(unknown.headers.get('correlation-id')).toBe('trace-ghi-789');
    for (const response of [ok, failed, unknown])
      expect(response.headers.get('request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(ok.headers.get('request-id')).not.toBe(failed.headers.get('request-id'));
  });

  it('replaces a correlation-id that is too long or not plain ASCII', async () => {
    const response = await call('GET', '/api/v2/areas', { headers: { 'correlation-id': 'x'.repeat(500) } });

    expect(response.headers.get('correlation-id')).toBe(response.headers.get('request-id'));
  });

  it('uses the request id as correlation id when none is sent', async () => {
    const response = await call('GET', '/api/v2/areas');

    expect(response.headers.get('correlation-id')).toBe(response.headers.get('request-id'));
  });

  it('answers health without a token', async () => {
    const response = await call('GET', '/health');

    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
  });

  it('publishes an OpenAPI 3.1 document without a token, with the public schema names', async () => {
    const response = await call('GET', '/api/v2/openapi.json');

    expect(response.status).toBe(200);
    expect(response.body.openapi).toBe('3.1.0');
    expect(response.body.servers[0].url).toBe(baseUrl());
    expect(Object.keys(response.body.components.schemas)).toEqual(
      expect.arrayContaining([
        'Area',
        'CreateArea',
        'UpdateArea',
        'AreaList',
        'Tag',
        'CreateTag',
        'UpdateTag',
        'TagList',
      ]),
    );
    expect(response.body.paths['/api/v2/areas/{area_id}'].patch.operationId).toBe('areas.update');
  });

  it('serves the OpenAPI document and the reference page’s files compressed as the client accepts, with an ETag that answers 304', async () => {
    /** The answer's bytes as sent (no client-side decoding). */
    const raw = (path: string, headers: Record<string, string>) =>
      new Promise<{ status: number; headers: Record<string, unknown>; bytes: Buffer }>((resolve, reject) => {
        get(`${baseUrl()}${path}`, { headers }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers,
              bytes: Buffer.concat(chunks),
            }),
          );
        }).on('error', reject);
      });
    const path = '/api/v2/openapi.json';

    const plain = await raw(path, {});
    const br = await raw(path, { 'accept-encoding': 'gzip, deflate, br' });
    const gzip = await raw(path, { 'accept-encoding': 'br;q=0, gzip' });

    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(plain.bytes.toString('utf8')).openapi).toBe('3.1.0');
    expect(br.headers['content-encoding']).toBe('br');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(brotliDecompressSync(br.bytes).equals(plain.bytes)).toBe(true);
    expect(gunzipSync(gzip.bytes).equals(plain.bytes)).toBe(true);
    console.log(
      `openapi.json: ${plain.bytes.length} bytes plain, ${br.bytes.length} br, ${gzip.bytes.length} gzip`,
    );
    expect(br.bytes.length).toBeLessThan(plain.bytes.length / 5);
    expect(gzip.bytes.length).toBeLessThan(plain.bytes.length / 5);
    const etag = plain.headers.etag as string;
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    expect([br.headers.etag, gzip.headers.etag]).toEqual([etag, etag]);
    expect(br.headers.vary).toMatch(/accept-encoding/i);

    const current = await raw(path, { 'accept-encoding': 'br', 'if-none-match': etag });
    const stale = await raw(path, { 'accept-encoding': 'br', 'if-none-match': 'W/"an-older-one"' });

    expect(current.status).toBe(304);
    expect(current.bytes.length).toBe(0);
    expect(current.headers.etag).toBe(etag);
    expect(stale.status).toBe(200);
    expect(stale.headers['content-encoding']).toBe('br');
    const script = await raw('/api/v2/docs/swagger-ui-bundle.js', { 'accept-encoding': 'gzip' });
    expect(script.status).toBe(200);
    expect(script.headers['content-encoding']).toBe('gzip');
    expect(script.headers['content-type']).toMatch(/^text\/javascript/);
    const page = await raw('/api/v2/docs', {
      'if-none-match': (await raw('/api/v2/docs', {})).headers.etag as string,
    });
    expect(page.status).toBe(304);
  });

  it('rejects bodies over 1 MiB with 413', async () => {
    const token = await tokenFor('acme-admin');

    const response = await call('POST', '/api/v2/areas', {
      token,
      body: { name: 'x', color: '#000000', description: 'a'.repeat(1_100_000) },
    });

    expect(response.status).toBe(413);
    expect(response.body.type).toEqual(problemType('payload-too-large'));
  });

  it('resolves every problem type URI it emits to a description of that type', async () => {
    const problem = await call('POST', '/api/v2/areas', {
      token: await tokenFor('acme-admin'),
      body: { name: ' ', color: 'nope' },
    });
    const uris = [problem.body.type, ...problem.body.errors.map((e: { type: string }) => e.type)];

    for (const uri of new Set<string>(uris)) {
      const response = await fetch(uri);
      expect(response.status).toBe(200);
      const doc = (await response.json()) as { type: string; description: string };
      expect(doc.type).toBe(uri);
      expect(doc.description.length).toBeGreaterThan(10);
    }
    expect((await call('GET', '/problems/no-such-type')).status).toBe(404);
  });
});
