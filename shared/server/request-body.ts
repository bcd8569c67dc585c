/**
 * Reading a request body up to a limit without ever destroying the request. Leaving a
 * `for await (const chunk of req)` loop early destroys the request stream: the server then stops
 * reading that connection, while the client, which got a whole answer, sends its next request
 * on it, and that request is never answered. That was the stall of unrelated requests under
 * fuzzing. Past the limit the rest of the body is left to `keepConnectionsUsable`.
 */
import type { IncomingMessage } from 'node:http';

export class BodyAbortedError extends Error {
  constructor() {
    super('the request body ended early');
    this.name = 'BodyAbortedError';
  }
}

/** The body, or `undefined` when it is larger than `limitBytes`; rejects when the client goes away. */
export function readBodyWithin(req: IncomingMessage, limitBytes: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (value: Buffer | undefined) => {
      if (settled) return;
      settled = true;
      resolve(value);
    };
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size <= limitBytes) chunks.push(chunk);
      else settle(undefined);
    });
    req.on('end', () => settle(Buffer.concat(chunks)));
    req.on('error', (error) => {
      if (!settled) reject(error);
      settled = true;
    });
    req.on('close', () => {
      if (!settled && !req.complete) reject(new BodyAbortedError());
      settled = true;
    });
  });
}
