/**
 * Requests past the size limits (README, "Request limits") are answered with a problem
 * document and a clean close: never a bare status line, never a reset connection.
 */
import { describe, expect, it } from 'vitest';
import { baseUrl, problemType, tokenFor } from '../support/api.ts';
import { type RawResponse, rawRequest } from '../support/raw-http.ts';

const host = () => `Host: ${new URL(baseUrl()).host}`;

function expectProblem(response: RawResponse, status: number, slug: string): void {
  expect(response.error).toBeUndefined();
  expect(response.status).toBe(status);
  expect(response.headers['content-type']).toBe('application/problem+json');
  expect(JSON.parse(response.body)).toMatchObject({ type: problemType(slug), status });
}

describe('Request limits', () => {
  it('answers a 100,000-character query string with 414 uri-too-long and closes', async () => {
    const response = await rawRequest(baseUrl(), [
      `GET /api/v2/areas?q=${'a'.repeat(100_000)} HTTP/1.1`,
      host(),
    ]);

    expectProblem(response, 414, 'uri-too-long');
    expect(response.headers.connection).toBe('close');
  });

  it('answers a 9 KiB request line that fits the header block with 414 as well', async () => {
    const response = await rawRequest(baseUrl(), [
      `GET /api/v2/areas?q=${'a'.repeat(9 * 1024)} HTTP/1.1`,
      host(),
      'Connection: close',
    ]);

    expectProblem(response, 414, 'uri-too-long');
  });

  it('answers the same on the identity provider paths', async () => {
    const response = await rawRequest(baseUrl(), [
      `GET /realms/shared/protocol/openid-connect/auth?state=${'s'.repeat(50_000)} HTTP/1.1`,
      host(),
    ]);

    expectProblem(response, 414, 'uri-too-long');
  });

  it('answers 20 KiB of headers with 431 request-header-fields-too-large', async () => {
    const response = await rawRequest(baseUrl(), [
      'GET /api/v2/areas HTTP/1.1',
      host(),
      ...Array.from({ length: 20 }, (_, i) => `X-Filler-${i}: ${'f'.repeat(1024)}`),
    ]);

    expectProblem(response, 431, 'request-header-fields-too-large');
    expect(response.headers.connection).toBe('close');
  });

  it('answers a declared body over 1 MiB with 413 before reading it, to a client still sending', async () => {
    const body = JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) });

    const response = await rawRequest(
      baseUrl(),
      [
        'POST /api/v2/areas HTTP/1.1',
        host(),
        `Authorization: Bearer ${await tokenFor('acme-admin')}`,
        'Content-Type: application/json',
        `Content-Length: ${Buffer.byteLength(body)}`,
      ],
      body,
    );

    expectProblem(response, 413, 'payload-too-large');
  });

  it('answers a chunked body that grows past 1 MiB with 413 through fetch', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 40) controller.enqueue(chunk);
        else controller.close();
      },
    });

    const response = await fetch(`${baseUrl()}/api/v2/areas`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${await tokenFor('acme-admin')}`,
        'content-type': 'application/json',
      },
      body: stream,
      duplex: 'half',
    } as RequestInit);

    expect(response.status).toBe(413);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(((await response.json()) as { type: string }).type).toEqual(problemType('payload-too-large'));
  });

  it('answers a malformed request line with 400 bad-request', async () => {
    const response = await rawRequest(baseUrl(), ['GET /api/v2/areas HTTP/1.1 extra', host()]);

    expectProblem(response, 400, 'bad-request');
  });

  it('keeps serving other requests after refusing these', async () => {
    const response = await fetch(`${baseUrl()}/health`);

    expect(response.status).toBe(200);
  });
});
