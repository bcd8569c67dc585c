/**
 * Requests past the size limits (README, "Request limits") are answered with a problem
 * document and a clean close: never a bare status line, never a reset connection.
 */
import { describe, expect, it } from 'vitest';
import { baseUrl, problemType, tokenFor } from '../support/api.ts';
import { chunkedRequest, RawConnection, type RawResponse, rawRequest } from '../support/raw-http.ts';

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

/**
 * The stall found by fuzzing: a body refused part-way (too large for the API, or for a form of
 * the identity provider, whose token endpoint reads bodies with oidc-provider's own parser)
 * left the rest of it on the keep-alive connection, so the next request a pooling client sent
 * on that connection was never answered, whatever its operation.
 */
describe('Connection reuse after a refused body', () => {
  const form = 'Content-Type: application/x-www-form-urlencoded';
  it.each([
    {
      title: 'an API body over 1 MiB',
      line: 'POST /api/v2/areas HTTP/1.1',
      type: 'Content-Type: application/json',
      chunks: 40,
      status: 413,
    },
    {
      title: 'a login form over 64 KiB',
      line: 'POST /realms/shared/login/abc HTTP/1.1',
      type: form,
      chunks: 2,
      status: 413,
    },
    {
      title: 'a logout form over 64 KiB',
      line: 'POST /realms/shared/protocol/openid-connect/logout HTTP/1.1',
      type: form,
      chunks: 2,
      status: 400,
    },
    {
      title: 'a token request form of 2 MiB',
      line: 'POST /realms/shared/protocol/openid-connect/token HTTP/1.1',
      type: form,
      chunks: 32,
      status: 400,
    },
  ])(
    'answers the next request on the connection after refusing $title',
    async ({ line, type, chunks, status }) => {
      const connection = new RawConnection(baseUrl());
      try {
        const refused = await connection.exchange(
          chunkedRequest([line, host(), type], chunks, 64 * 1024, 'a'),
        );
        const next = await connection.exchange(`GET /health HTTP/1.1\r\n${host()}\r\n\r\n`);

        expect(refused.status).toBe(status);
        expect(next).toMatchObject({ status: 200, body: '{"status":"ok"}' });
        expect(next.error).toBeUndefined();
      } finally {
        connection.close();
      }
    },
  );
});
