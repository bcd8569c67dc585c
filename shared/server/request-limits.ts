/**
 * How much one request may carry, and how a request past a limit is answered: always with a
 * problem document and a clean close, never a bare status line or a reset connection.
 *
 * | limit                                   | answer |
 * |-----------------------------------------|--------|
 * | request line (method, target, version)  | 414 `uri-too-long` |
 * | header block, request line included     | 431 `request-header-fields-too-large` |
 * | body                                    | 413 `payload-too-large` (checked in-function too) |
 * | malformed HTTP                          | 400 `bad-request` |
 * | headers or body not received in time    | 408 `request-timeout` |
 *
 * Node's HTTP parser refuses an oversized header block itself and reports it as a
 * `clientError`, whose default answer is a bare 431 (or a reset while the client still writes).
 * `answerClientErrors` replaces that answer; `requestLimitProblem` covers what the parser lets
 * through (a request line within the header limit but over its own, a declared body too large).
 * On AWS, CloudFront and API Gateway enforce their own limits before a function runs.
 */

import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerOptions, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { headersTooLarge, payloadTooLarge, requestLimits, uriTooLong } from '../http/limits.ts';
import { ProblemError, toProblemDocument } from '../http/problem.ts';
import { problemTypes } from '../http/problem-types.ts';
import { headerValue } from './raw-headers.ts';

/** Options for node:http's createServer that apply these limits. */
export const limitedServerOptions: ServerOptions = { maxHeaderSize: requestLimits.headerBytes };

/** How long, and how much, a refused request may keep sending before its connection is dropped. */
const drainMs = 5_000;
const drainBytes = 16 * requestLimits.bodyBytes;

/** The problem for a request the parser accepted but that breaks a limit, if any. */
export function requestLimitProblem(req: IncomingMessage): ProblemError | undefined {
  const requestLine = `${req.method ?? ''} ${req.url ?? ''} HTTP/${req.httpVersion}`;
  if (Buffer.byteLength(requestLine) > requestLimits.requestLineBytes) return uriTooLong();
  const declared = Number(headerValue(req, 'content-length') ?? 0);
  if (declared > requestLimits.bodyBytes) return payloadTooLarge();
  return undefined;
}

/**
 * Keeps every connection able to serve its next request. A request answered before its body
 * was read to the end (a limit, an early error, a handler or library that stopped reading)
 * would leave the rest of its body on the connection, and the client's next request on it
 * would never be parsed. So, as nginx's lingering close does, once the answer is sent the rest
 * is read and dropped and the connection stays usable, unless the client keeps sending past a
 * bound or too long. A request stream that was destroyed cannot be drained: its connection is
 * closed after the answer instead.
 */
export function keepConnectionsUsable(server: Server): void {
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    res.on('finish', () => {
      if (req.complete) return;
      if (req.destroyed) {
        req.socket.end();
        setTimeout(() => req.socket.destroy(), drainMs).unref();
      } else drainUnreadBody(req);
    });
  });
}

function drainUnreadBody(req: IncomingMessage): void {
  let drained = 0;
  const timer = setTimeout(() => req.socket.destroy(), drainMs);
  timer.unref();
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > drainBytes) req.socket.destroy();
  });
  req.on('end', () => clearTimeout(timer));
  req.on('close', () => clearTimeout(timer));
  // A reader that gave up may have paused the stream explicitly; a listener alone would not restart it.
  req.resume();
}

/**
 * Answers what Node's parser refuses. `rawPacket` holds the bytes of the chunk that broke the
 * limit: when it starts with a request line that has not ended within its limit, the target
 * is what is too long (414), otherwise the headers are (431).
 */
export function answerClientErrors(server: Server): void {
  const answered = new WeakSet<Socket>();
  server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket) => {
    // The parser reports every further chunk of a refused request again: one answer per socket.
    if (answered.has(socket)) return;
    answered.add(socket);
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const problem = problemForParserError(error);
    const body = JSON.stringify(toProblemDocument(problem));
    const requestId = randomUUID();
    const headers = [
      `HTTP/1.1 ${problem.status} ${problemTypes[problem.type].title}`,
      'Content-Type: application/problem+json',
      `Content-Length: ${Buffer.byteLength(body)}`,
      `request-id: ${requestId}`,
      `correlation-id: ${requestId}`,
      'Connection: close',
    ];
    socket.end(`${headers.join('\r\n')}\r\n\r\n${body}`);
    // Keep reading what the client still sends, so closing does not reset the connection
    // before it has read the answer; drop it if it keeps sending.
    socket.resume();
    setTimeout(() => socket.destroy(), drainMs).unref();
  });
}

function problemForParserError(error: NodeJS.ErrnoException & { rawPacket?: Buffer }): ProblemError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return requestLineUnfinished(error.rawPacket) ? uriTooLong() : headersTooLarge();
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ProblemError('request-timeout', {
        detail: 'The request headers or body did not arrive in time.',
      });
    default:
      return new ProblemError('bad-request', { detail: 'The request is not well-formed HTTP/1.1.' });
  }
}

function requestLineUnfinished(raw: Buffer | undefined): boolean {
  if (!raw || !/^[A-Z]+ /.test(raw.subarray(0, 16).toString('latin1'))) return false;
  const end = raw.indexOf('\r\n');
  return end === -1 || end > requestLimits.requestLineBytes;
}
