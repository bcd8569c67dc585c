/**
 * One webhook attempt against real receivers on 127.0.0.1: what the worker learns from it
 * (status, Retry-After, a body snippet, or why nothing usable came back), and that it connects
 * only where destination.ts pinned it, however the receiver behaves.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PinnedDestination, ResolvedAddress } from './destination.ts';
import {
  type AttemptOptions,
  closePooledConnections,
  maxSnippetBytes,
  parseRetryAfter,
  postWebhook,
} from './http-attempt.ts';

const body = '{"type":"area.created","id":"d-1"}';
const signed = { body, headers: { 'webhook-id': 'd-1', 'webhook-timestamp': '1700000000' } };

/** One attempt with the signed test body to `url`, pinned to 127.0.0.1. */
function post(url: string, options?: AttemptOptions) {
  return postWebhook({ destination: pinned(url), ...signed }, options);
}

/** A destination as resolveDestination returns it, pinned to `addresses` whatever the URL's host. */
function pinned(url: string, addresses: readonly ResolvedAddress[] = [{ address: '127.0.0.1', family: 4 }]) {
  const [first] = addresses as [ResolvedAddress];
  return { url: new URL(url), address: first.address, family: first.family, addresses } as PinnedDestination;
}

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  servername?: string;
}

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

const servers: Array<http.Server | https.Server | net.Server> = [];

/** A receiver on 127.0.0.1 (or `host`) that records what it got and answers with `handler`. */
async function startReceiver(handler: Handler, host = '127.0.0.1', port = 0) {
  const received: Received[] = [];
  let connections = 0;
  const server = http.createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      text += chunk;
    });
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: text });
      handler(req, res);
    });
  });
  server.on('connection', () => {
    connections += 1;
  });
  await listen(server, port, host);
  return { server, received, port: portOf(server), connections: () => connections };
}

async function listen(server: http.Server | https.Server | net.Server, port: number, host: string) {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
}

function portOf(server: http.Server | https.Server | net.Server): number {
  return (server.address() as net.AddressInfo).port;
}

afterEach(async () => {
  closePooledConnections();
  for (const server of servers.splice(0)) {
    if ('closeAllConnections' in server) server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

describe('Function: postWebhook', () => {
  describe('answers', () => {
    it('acknowledges a 2xx and delivers the signed body to the pinned address under the URL host', async () => {
      const receiver = await startReceiver((_req, res) => res.writeHead(200).end('thanks'));

      const ok = await post(`http://hooks.example.test:${receiver.port}/in?x=1`);

      expect(ok).toMatchObject({ ok: true, status: 200, responseSnippet: 'thanks' });
      expect(ok.error).toBeUndefined();
      expect(receiver.received).toEqual([
        expect.objectContaining({
          method: 'POST',
          url: '/in?x=1',
          body,
          headers: expect.objectContaining({
            host: `hooks.example.test:${receiver.port}`,
            'content-type': 'application/json',
            'content-length': String(Buffer.byteLength(body)),
            'webhook-id': 'd-1',
            'webhook-timestamp': '1700000000',
          }),
        }),
      ]);
    });

    it('acknowledges a 204 without a body', async () => {
      const receiver = await startReceiver((_req, res) => res.writeHead(204).end());
      const result = await post(`http://hooks.example.test:${receiver.port}/`);
      expect(result).toEqual({ ok: true, status: 204, durationMs: expect.any(Number) });
    });

    it('reports a 500 as a failure with the start of its body', async () => {
      const receiver = await startReceiver((_req, res) => res.writeHead(500).end('database on fire'));
      const result = await post(`http://hooks.example.test:${receiver.port}/`);
      expect(result).toMatchObject({
        ok: false,
        status: 500,
        responseSnippet: 'database on fire',
        failure: 'NON_2XX_RESPONSE',
      });
    });

    it('never follows a redirect: the 3xx is the answer and its target is never asked', async () => {
      const target = await startReceiver((_req, res) => res.writeHead(200).end());
      const redirecting = await startReceiver((_req, res) =>
        res.writeHead(307, { location: `http://127.0.0.1:${target.port}/elsewhere` }).end(),
      );
      const result = await post(`http://hooks.example.test:${redirecting.port}/`);
      expect(result).toMatchObject({ ok: false, status: 307, failure: 'REDIRECT_NOT_FOLLOWED' });
      expect(target.received).toEqual([]);
    });

    it('reads Retry-After of a 429 given in seconds', async () => {
      const receiver = await startReceiver((_req, res) => res.writeHead(429, { 'retry-after': '120' }).end());
      const result = await post(`http://hooks.example.test:${receiver.port}/`);
      expect(result).toMatchObject({ ok: false, status: 429, retryAfterSeconds: 120 });
    });

    it('reads Retry-After of a 429 given as an HTTP-date', async () => {
      const receiver = await startReceiver((_req, res) =>
        res.writeHead(429, { 'retry-after': new Date(Date.now() + 90_000).toUTCString() }).end(),
      );
      const result = await post(`http://hooks.example.test:${receiver.port}/`);
      expect(result.status).toBe(429);
      expect(result.retryAfterSeconds).toBeGreaterThanOrEqual(88);
      expect(result.retryAfterSeconds).toBeLessThanOrEqual(90);
    });

    it('keeps only the first 4 KiB of an endless body and does not wait for the rest', async () => {
      const receiver = await startReceiver((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = 'x'.repeat(64 * 1024);
        const pump = () => {
          while (!res.destroyed && res.write(chunk));
          if (!res.destroyed) res.once('drain', pump);
        };
        pump();
      });
      const result = await post(`http://hooks.example.test:${receiver.port}/`);
      expect(result).toMatchObject({ ok: true, status: 200 });
      expect(result.responseSnippet).toBe('x'.repeat(maxSnippetBytes));
      expect(result.durationMs).toBeLessThan(2_000);
    });

    it('reuses one connection for consecutive attempts to the same receiver', async () => {
      const receiver = await startReceiver((_req, res) => res.writeHead(200).end('ok'));
      const destination = pinned(`http://hooks.example.test:${receiver.port}/`);
      for (let i = 0; i < 3; i++) expect((await postWebhook({ destination, ...signed })).ok).toBe(true);
      expect(receiver.connections()).toBe(1);
    });

    it.skipIf(process.platform !== 'linux')(
      'never sends an attempt over a connection opened to the addresses the name had before',
      async () => {
        // Two receivers on one port, at two loopback addresses; the name moves from one to the other.
        const before = await startReceiver((_req, res) => res.writeHead(200).end('before'), '127.0.0.1');
        const after = await startReceiver(
          (_req, res) => res.writeHead(200).end('after'),
          '127.0.0.2',
          before.port,
        );
        const url = `http://hooks.example.test:${before.port}/`;

        await postWebhook({ destination: pinned(url, [{ address: '127.0.0.1', family: 4 }]), ...signed });
        const moved = await postWebhook({
          destination: pinned(url, [{ address: '127.0.0.2', family: 4 }]),
          ...signed,
        });

        expect(moved.responseSnippet).toBe('after');
        expect([before.received.length, after.received.length]).toEqual([1, 1]);
      },
    );
  });

  describe('failures without an answer', () => {
    it('reports a refused connection', async () => {
      const closed = net.createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const port = portOf(closed);
      await new Promise<void>((resolve) => closed.close(() => resolve()));

      const result = await post(`http://hooks.example.test:${port}/`);
      expect(result).toEqual({
        ok: false,
        error: 'connection refused',
        failure: 'CONNECTION_FAILED',
        durationMs: expect.any(Number),
      });
    });

    it('gives up on a receiver that accepts the request but never answers, after 5 seconds', async () => {
      const receiver = await startReceiver(() => {});
      const result = await post(`http://hooks.example.test:${receiver.port}/`);
      expect(result).toMatchObject({ ok: false, error: 'response timeout', failure: 'RESPONSE_TIMEOUT' });
      expect(result.status).toBeUndefined();
      expect(result.durationMs).toBeGreaterThanOrEqual(4_900);
      expect(result.durationMs).toBeLessThan(6_500);
    }, 10_000);

    it('gives up on a 2xx whose body never ends, keeping its status for the record', async () => {
      const receiver = await startReceiver((_req, res) => {
        res.writeHead(200);
        res.write('partial');
      });
      const result = await post(`http://hooks.example.test:${receiver.port}/`, {
        responseTimeoutMs: 300,
      });
      expect(result).toMatchObject({ ok: false, status: 200, error: 'response timeout' });
    });

    it('reports a receiver that closes the connection without answering', async () => {
      const receiver = await startReceiver((req) => req.socket.destroy());
      const result = await post(`http://hooks.example.test:${receiver.port}/`);
      expect(result).toMatchObject({
        ok: false,
        error: 'connection closed without a response',
        failure: 'CONNECTION_FAILED',
      });
    });

    it('reports headers it cannot send instead of throwing', async () => {
      const receiver = await startReceiver((_req, res) => res.writeHead(200).end());
      const result = await postWebhook({
        destination: pinned(`http://hooks.example.test:${receiver.port}/`),
        body,
        headers: { 'request-id': 'a\r\nx-injected: 1' },
      });
      expect(result.ok).toBe(false);
      expect(result.error).toMatch(/^invalid request: /);
      expect(receiver.received).toEqual([]);
    });
  });
});

const hasOpenssl = (() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(!hasOpenssl)('Function: postWebhook over https', () => {
  let certificate: string;
  let key: string;

  beforeAll(() => {
    // A throwaway self-signed certificate for hooks.example.test, trusted only through `ca`.
    const dir = mkdtempSync(join(tmpdir(), 'webhook-tls-'));
    try {
      execFileSync(
        'openssl',
        [
          ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '2'],
          ...[
            '-keyout',
            join(dir, 'key.pem'),
            '-out',
            join(dir, 'cert.pem'),
            '-subj',
            '/CN=hooks.example.test',
          ],
          ...['-addext', 'subjectAltName=DNS:hooks.example.test'],
        ],
        { stdio: 'ignore' },
      );
      certificate = readFileSync(join(dir, 'cert.pem'), 'utf8');
      key = readFileSync(join(dir, 'key.pem'), 'utf8');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  afterAll(() => closePooledConnections());

  async function startTlsReceiver() {
    const received: Received[] = [];
    const server = https.createServer({ cert: certificate, key }, (req, res) => {
      received.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: '',
        servername: (req.socket as TLSSocket).servername || undefined,
      });
      req.resume();
      req.on('end', () => res.writeHead(200).end('secure thanks'));
    });
    await listen(server, 0, '127.0.0.1');
    return { received, port: portOf(server) };
  }

  it('verifies the certificate against the URL host while connecting to the pinned address', async () => {
    const receiver = await startTlsReceiver();
    const result = await post(`https://hooks.example.test:${receiver.port}/in`, {
      ca: certificate,
    });
    expect(result).toMatchObject({ ok: true, status: 200, responseSnippet: 'secure thanks' });
    expect(receiver.received[0]).toMatchObject({
      servername: 'hooks.example.test',
      headers: expect.objectContaining({ host: `hooks.example.test:${receiver.port}` }),
    });
  });

  it('refuses a certificate made out to another name', async () => {
    const receiver = await startTlsReceiver();
    const result = await post(`https://other.example.test:${receiver.port}/in`, {
      ca: certificate,
    });
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/^tls: .*other\.example\.test/);
    expect(receiver.received).toEqual([]);
  });

  it('refuses a certificate no trusted authority signed', async () => {
    const receiver = await startTlsReceiver();
    const result = await post(`https://hooks.example.test:${receiver.port}/in`);
    expect(result).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^tls: /),
      failure: 'TLS_FAILED',
    });
    expect(receiver.received).toEqual([]);
  });

  it('gives up when the TLS handshake does not finish within the connect deadline', async () => {
    // Accepts TCP and reads the ClientHello, then says nothing: the handshake never completes.
    const silent = net.createServer((socket) => socket.resume());
    await listen(silent, 0, '127.0.0.1');
    const result = await post(`https://hooks.example.test:${portOf(silent)}/in`, {
      connectTimeoutMs: 200,
    });
    expect(result).toMatchObject({ ok: false, error: 'connect timeout', failure: 'CONNECT_TIMEOUT' });
    expect(result.durationMs).toBeLessThan(1_000);
  });
});

describe('Function: parseRetryAfter', () => {
  const now = Date.parse('2025-01-01T12:00:00Z');

  it.each([
    ['delta-seconds', '300', 300],
    ['delta-seconds with spaces', ' 30 ', 30],
    ['zero', '0', 0],
    ['an IMF-fixdate', 'Wed, 01 Jan 2025 12:02:00 GMT', 120],
    ['a date in the past', 'Wed, 01 Jan 2025 11:00:00 GMT', 0],
    ['an obsolete RFC 850 date', 'Wednesday, 01-Jan-25 12:00:10 GMT', 10],
  ])('reads %s', (_title, value, seconds) => {
    expect(parseRetryAfter(value, now)).toBe(seconds);
  });

  it.each([undefined, '', '-5', '1.5', 'soon', '5 minutes'])('ignores %j', (value) => {
    expect(parseRetryAfter(value, now)).toBeUndefined();
  });
});
