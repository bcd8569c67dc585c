/**
 * One delivery attempt: a single POST of a signed JSON body to a destination that
 * destination.ts resolved and checked moments ago. What the receiver contract (SPEC.md,
 * Webhooks → Receiver contract) needs, and nothing a hostile receiver could use against us:
 *
 * - Connections go only to the checked addresses (a pinned `lookup`), while TLS still verifies
 *   the certificate against the URL's own hostname (SNI and Host header carry it too).
 * - Real-time deadlines: the connection (TCP and TLS) within connectTimeoutMs, the response
 *   within responseTimeoutMs of the connection being ready; a missed deadline aborts the socket.
 * - Redirects are never followed: a 3xx is just a status that is not 2xx.
 * - At most 4 KiB of the response body is read, kept as a snippet for failure records; a longer
 *   body is cut off with its connection rather than downloaded.
 * - Network failures become results, never exceptions: the worker records and retries them.
 *
 * node:http rather than fetch: fetch follows redirects by default, cannot pin addresses, and its
 * body reading and timeouts are harder to bound.
 *
 * Connections are kept alive in one agent per (scheme, checked address set), so deliveries to
 * one receiver reuse a connection, yet a name that now resolves elsewhere never rides on a
 * connection opened to its old addresses. Agents are kept in a small LRU; a dropped agent's idle
 * sockets close by themselves after idleSocketMs.
 */
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { hostOf, type PinnedDestination, type ResolvedAddress } from './destination.ts';
import { type AttemptFailureReason, failureOfStatus } from './failure-reason.ts';
import { connectTimeoutMs, responseTimeoutMs } from './retry-schedule.ts';

/** Bytes of the response body kept (and read at all). */
export const maxSnippetBytes = 4096;

export interface AttemptRequest {
  /** Where to connect: the output of resolveDestination, checked just now. */
  destination: PinnedDestination;
  /** The exact bytes that were signed. */
  body: string;
  /** The signature headers and friends; Host, Content-Type and Content-Length are set here. */
  headers: Readonly<Record<string, string>>;
}

export interface AttemptOptions {
  /** Defaults from retry-schedule.ts; tests shorten them. */
  connectTimeoutMs?: number;
  responseTimeoutMs?: number;
  /** Extra trusted CA certificates (PEM), replacing the default roots; for tests with their own CA. */
  ca?: string | readonly string[];
}

export interface AttemptResult {
  /** A 2xx status arrived, with its body (up to maxSnippetBytes), within the deadlines. */
  ok: boolean;
  status?: number;
  /** The receiver's Retry-After in seconds (delta-seconds or HTTP-date), when it sent a valid one. */
  retryAfterSeconds?: number;
  /** The first maxSnippetBytes of the response body as UTF-8, when there was a body. */
  responseSnippet?: string;
  /**
   * Why the attempt failed when no usable answer arrived: 'connect timeout', 'response timeout',
   * 'connection refused', 'connection reset', 'connection closed without a response',
   * 'tls: <reason>', 'invalid HTTP response', 'invalid request: <reason>', 'network: <code>'.
   */
  error?: string;
  /** Unless ok: the closed reason (failure-reason.ts) for clients to branch on. */
  failure?: AttemptFailureReason;
  durationMs: number;
}

/** POST `request.body` to `request.destination`; resolves with the outcome, never rejects. */
export function postWebhook(request: AttemptRequest, options: AttemptOptions = {}): Promise<AttemptResult> {
  const { destination } = request;
  const connectMs = options.connectTimeoutMs ?? connectTimeoutMs;
  const responseMs = options.responseTimeoutMs ?? responseTimeoutMs;
  const { url } = destination;
  const secure = url.protocol === 'https:';
  const host = hostOf(url);

  return new Promise<AttemptResult>((resolve) => {
    const started = performance.now();
    let settled = false;
    let status: number | undefined;
    let tcpConnected = false;
    let ready = false;
    let connectTimer: NodeJS.Timeout | undefined;
    let responseTimer: NodeJS.Timeout | undefined;
    let req: http.ClientRequest | undefined;

    const finish = (result: Omit<AttemptResult, 'durationMs'>, abort: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      clearTimeout(responseTimer);
      if (abort) req?.destroy();
      resolve({ ...result, durationMs: Math.round(performance.now() - started) });
    };
    const fail = (error: string, failure: AttemptFailureReason) =>
      finish({ ok: false, ...(status === undefined ? {} : { status }), error, failure }, true);

    const connectionReady = () => {
      ready = true;
      clearTimeout(connectTimer);
      responseTimer = setTimeout(() => fail('response timeout', 'RESPONSE_TIMEOUT'), responseMs);
    };

    try {
      req = (secure ? https : http).request({
        method: 'POST',
        hostname: host,
        port: url.port || (secure ? 443 : 80),
        path: `${url.pathname}${url.search}`,
        headers: {
          ...request.headers,
          host: url.host,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(request.body)),
        },
        agent: agentFor(destination, secure),
        // Certificates are checked against the URL's name, never the address we connect to.
        ...(secure && !isIP(host) ? { servername: host } : {}),
        ...(options.ca ? { ca: typeof options.ca === 'string' ? options.ca : [...options.ca] } : {}),
      });
    } catch (error) {
      // Node validates headers synchronously (a newline in a value, say).
      finish(
        { ok: false, error: `invalid request: ${(error as Error).message}`, failure: 'CONNECTION_FAILED' },
        false,
      );
      return;
    }
    const sent = req;

    connectTimer = setTimeout(() => fail('connect timeout', 'CONNECT_TIMEOUT'), connectMs);
    sent.on('socket', (socket) => {
      if (sent.reusedSocket) return connectionReady();
      socket.once('connect', () => {
        tcpConnected = true;
      });
      socket.once(secure ? 'secureConnect' : 'connect', connectionReady);
    });

    sent.on('error', (error: NodeJS.ErrnoException) => {
      const described = describeNetworkError(error, secure && !ready, tcpConnected);
      fail(described, failureOfNetworkError(described));
    });

    sent.on('response', (res) => {
      status = res.statusCode ?? 0;
      const retryAfterSeconds = parseRetryAfter(res.headers['retry-after']);
      const chunks: Buffer[] = [];
      let kept = 0;
      const complete = (cut: boolean) => {
        const snippet = Buffer.concat(chunks).toString('utf8');
        const ok = status !== undefined && status >= 200 && status < 300;
        finish(
          {
            ok,
            status,
            ...(ok ? {} : { failure: failureOfStatus(status ?? 0) }),
            ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
            ...(snippet ? { responseSnippet: snippet } : {}),
          },
          // The rest of a long body goes with its connection: downloading it could take forever.
          cut,
        );
      };
      res.on('data', (chunk: Buffer) => {
        if (settled) return;
        const room = maxSnippetBytes - kept;
        chunks.push(chunk.subarray(0, room));
        kept += Math.min(room, chunk.length);
        if (kept >= maxSnippetBytes) complete(true);
      });
      // 'end' lets a keep-alive connection go back to its agent for the next attempt.
      res.on('end', () => complete(false));
      // A close before 'end' is a body cut short; after 'end' (or our own cut) it changes nothing.
      res.on('error', () => fail('connection closed during the response', 'CONNECTION_FAILED'));
      res.on('close', () => fail('connection closed during the response', 'CONNECTION_FAILED'));
    });

    sent.end(request.body);
  });
}

/**
 * Retry-After as seconds from now: delta-seconds or an HTTP-date (RFC 9110 §10.2.3); a date in
 * the past is 0, anything unreadable is undefined.
 */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text);
  // Date.parse reads almost anything ('1.5' is a date to it); an HTTP-date always has a day name.
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now) / 1000));
}

/** Drops every pooled connection, for a worker's shutdown and for tests. */
export function closePooledConnections(): void {
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
}

/** Idle keep-alive sockets close after this; below Node's default server keepAliveTimeout (5 s). */
const idleSocketMs = 4_000;
const maxAgents = 256;
const agents = new Map<string, http.Agent>();

function agentFor(destination: PinnedDestination, secure: boolean): http.Agent {
  const key = `${secure ? 'https' : 'http'} ${destination.addresses.map((a) => a.address).join(' ')}`;
  const known = agents.get(key);
  if (known) {
    // Most recently used last, so eviction takes the longest unused.
    agents.delete(key);
    agents.set(key, known);
    return known;
  }
  // The agent's own pool is keyed by host, port and TLS options, so one agent serves every
  // receiver behind these addresses without mixing them up.
  const agentOptions = {
    keepAlive: true,
    timeout: idleSocketMs,
    lookup: pinnedLookup(destination.addresses),
  };
  const agent = secure ? new https.Agent(agentOptions) : new http.Agent(agentOptions);
  agents.set(key, agent);
  if (agents.size > maxAgents) {
    const oldest = agents.keys().next().value;
    // Not destroyed: requests may still run on it; its idle sockets time out on their own.
    if (oldest !== undefined) agents.delete(oldest);
  }
  return agent;
}

/**
 * A `lookup` that answers every name with the checked addresses. With several of them Node's
 * happy-eyeballs connect (`all: true`) tries each in turn; all were checked, so any may be used.
 */
function pinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all)
      return callback(
        null,
        addresses.map(({ address, family }) => ({ address, family })),
      );
    const [first] = addresses;
    if (!first) return callback(Object.assign(new Error('no checked address'), { code: 'ENOTFOUND' }), '', 0);
    callback(null, first.address, first.family);
  };
}

const tlsErrorCode = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_)/;

/** The closed reason of what describeNetworkError said. */
function failureOfNetworkError(described: string): AttemptFailureReason {
  if (described.startsWith('tls: ')) return 'TLS_FAILED';
  if (described === 'connect timeout') return 'CONNECT_TIMEOUT';
  if (described === 'invalid HTTP response') return 'INVALID_RESPONSE';
  return 'CONNECTION_FAILED';
}

function describeNetworkError(
  error: NodeJS.ErrnoException,
  beforeTls: boolean,
  tcpConnected: boolean,
): string {
  const code = error.code ?? '';
  // After the TCP handshake and before a secure connection, any failure is the TLS handshake's.
  // Node appends advice for its own operators after a ';' ("try --use-system-ca"); not the receiver's business.
  if (tlsErrorCode.test(code) || (beforeTls && tcpConnected)) return `tls: ${error.message.split('; ')[0]}`;
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return error.message === 'socket hang up' ? 'connection closed without a response' : 'connection reset';
    case 'EPIPE':
      return 'connection reset';
    case 'ETIMEDOUT':
      return 'connect timeout';
    case 'EHOSTUNREACH':
      return 'host unreachable';
    case 'ENETUNREACH':
      return 'network unreachable';
  }
  if (code.startsWith('HPE_')) return 'invalid HTTP response';
  return `network: ${code || error.message}`;
}
