/**
 * Requests written byte for byte on a TCP socket, for what fetch cannot send: repeated headers,
 * request lines and header blocks larger than a client would allow. The answer is read until
 * its Content-Length is complete or the server closes the connection; whether the server
 * reset the connection instead of answering is reported, not thrown.
 */
import { connect } from 'node:net';

export interface RawResponse {
  /** 0 when no status line arrived. */
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Set when the connection failed (for example ECONNRESET) before a whole answer arrived. */
  error?: string;
}

/** `lines` are the request line and header lines, without line ends; `body` follows them. */
export function rawRequest(
  baseUrl: string,
  lines: readonly string[],
  body = '',
  timeoutMs = 10_000,
): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  const head = `${lines.join('\r\n')}\r\n\r\n`;
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let received = Buffer.alloc(0);
    let settled = false;
    const finish = (error?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...parse(received), ...(error ? { error } : {}) });
    };
    const timer = setTimeout(() => finish('timeout'), timeoutMs);
    socket.on('connect', () => {
      // Written in one go where it fits, as a client would; a reset while writing is reported.
      socket.write(head);
      if (body) socket.write(body);
    });
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      const parsed = parse(received);
      const length = Number(parsed.headers['content-length'] ?? Number.NaN);
      if (parsed.status && Number.isFinite(length) && Buffer.byteLength(parsed.body) >= length) finish();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // An answer that arrived whole before the reset still counts as answered.
      const parsed = parse(received);
      const length = Number(parsed.headers['content-length'] ?? Number.NaN);
      finish(parsed.status && Buffer.byteLength(parsed.body) >= length ? undefined : (error.code ?? 'error'));
    });
    socket.on('close', () => finish());
  });
}

function parse(data: Buffer): Omit<RawResponse, 'error'> {
  const text = data.toString('utf8');
  const end = text.indexOf('\r\n\r\n');
  if (end === -1) return { status: 0, headers: {}, body: '' };
  const [statusLine = '', ...headerLines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1] ?? 0), headers, body: text.slice(end + 4) };
}

/**
 * One keep-alive connection on which requests are sent one after another, as a pooling client
 * reuses it: what a request leaves behind on the connection decides whether the next is served.
 */
export class RawConnection {
  private readonly socket;
  private received = Buffer.alloc(0);
  private closed = false;
  private waiter: (() => void) | undefined;

  constructor(baseUrl: string) {
    const { hostname, port } = new URL(baseUrl);
    this.socket = connect(Number(port), hostname);
    this.socket.on('data', (chunk) => {
      this.received = Buffer.concat([this.received, chunk]);
      this.waiter?.();
    });
    const end = () => {
      this.closed = true;
      this.waiter?.();
    };
    this.socket.on('close', end);
    this.socket.on('error', end);
  }

  /** Sends the bytes and reads one whole answer (by Content-Length), or gives up after the timeout. */
  async exchange(bytes: string | Buffer, timeoutMs = 5_000): Promise<RawResponse> {
    this.socket.write(bytes);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const parsed = parse(this.received);
      const length = Number(parsed.headers['content-length'] ?? Number.NaN);
      if (parsed.status && Buffer.byteLength(parsed.body) >= length) {
        const headEnd = this.received.indexOf('\r\n\r\n') + 4;
        this.received = this.received.subarray(headEnd + length);
        return { ...parsed, body: parsed.body.slice(0, length) };
      }
      if (this.closed) return { ...parsed, error: 'closed' };
      if (Date.now() > deadline) return { ...parsed, error: 'timeout' };
      await new Promise<void>((resolve) => {
        this.waiter = resolve;
        setTimeout(resolve, 50);
      });
    }
  }

  close(): void {
    this.socket.destroy();
  }
}

/** A request with a chunked body: `chunks` chunks of `chunkBytes` bytes each. */
export function chunkedRequest(
  lines: readonly string[],
  chunks: number,
  chunkBytes: number,
  fill = 'x',
): Buffer {
  const chunk = `${chunkBytes.toString(16)}\r\n${fill.repeat(chunkBytes)}\r\n`;
  return Buffer.from(
    `${[...lines, 'Transfer-Encoding: chunked'].join('\r\n')}\r\n\r\n${chunk.repeat(chunks)}0\r\n\r\n`,
  );
}
