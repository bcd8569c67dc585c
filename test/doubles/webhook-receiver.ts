/**
 * A webhook receiver whose answers the test controls: every request is recorded with its raw
 * body and headers, and `answer` decides each response (status, headers, delay). The webhook
 * benchmarks (bench/webhooks.bench.ts, bench/webhook-crash.bench.ts) receive with it too.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  /** The exact bytes received, as a string (what a signature is computed over). */
  body: string;
  json: any;
  at: number;
  path: string;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Milliseconds to wait before answering. */
  delayMs?: number;
}

export interface Receiver {
  url: string;
  received: ReceivedWebhook[];
  /** Decides the answer to each request (default 204). */
  answer: (request: ReceivedWebhook, index: number) => Answer;
  /** Resolves once `count` requests matching `filter` arrived. */
  waitFor(
    count: number,
    filter?: (r: ReceivedWebhook) => boolean,
    timeoutMs?: number,
  ): Promise<ReceivedWebhook[]>;
  stop(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = {
    url: '',
    received: [],
    answer: () => ({ status: 204 }),
    async waitFor(count, filter = () => true, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const matching = receiver.received.filter(filter);
        if (matching.length >= count) return matching;
        if (Date.now() > deadline) {
          throw new Error(
            `expected ${count} webhooks, got ${matching.length} (of ${receiver.received.length})`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    stop: async () => {},
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const request: ReceivedWebhook = {
        headers: req.headers,
        body,
        json,
        at: Date.now(),
        path: req.url ?? '/',
      };
      const index = receiver.received.push(request) - 1;
      const answer = receiver.answer(request, index);
      setTimeout(() => {
        res.writeHead(answer.status, answer.headers ?? {});
        res.end(answer.body ?? '');
      }, answer.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver.stop = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}
