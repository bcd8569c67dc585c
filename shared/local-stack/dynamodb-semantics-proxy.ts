/**
 * A proxy in front of DynamoDB Local that gives concurrent writes DynamoDB's own answers.
 * DynamoDB Local runs transactions one at a time, so two writes never meet there; on DynamoDB a
 * transaction holds its items while it runs, and whoever else writes them meanwhile is refused:
 * another TransactWriteItems (or a TransactGetItems) is cancelled with reason
 * `TransactionConflict`, a PutItem/UpdateItem/DeleteItem fails with TransactionConflictException,
 * and a BatchWriteItem gets the item back in `UnprocessedItems`. Here a TransactWriteItems holds
 * its items from the moment it arrives until `holdMs` after DynamoDB Local answered it (the
 * window is real on DynamoDB; widening it makes concurrent requests of a test really meet).
 * With `indexLagMs`, a Query or Scan of a global secondary index is served from a copy of the
 * table that follows it that much later (dynamodb-index-lag.ts), as DynamoDB's GSIs are
 * eventually consistent. Every other request, and every byte of every answer not refused or
 * re-addressed here, passes through as is.
 * See shared/data/README.md, "Testing under DynamoDB's semantics".
 */
import { randomUUID } from 'node:crypto';
import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import {
  type BufferedAnswer,
  proxyFailed,
  transactionCancelled,
  transactionConflict,
} from './dynamodb-conflict-answers.ts';
import { type IndexLag, startIndexLag } from './dynamodb-index-lag.ts';
import {
  asBatchWrites,
  type BatchWrites,
  countBatchWrites,
  dynamoDbOperation,
  indexRead,
  keyedRequest,
  mergeBatchWrites,
  partiqlWrite,
  splitBatchWrites,
  type WrittenItem,
  writtenItems,
} from './dynamodb-item-keys.ts';

export interface DynamoDbSemanticsProxyOptions {
  /** DynamoDB Local's endpoint, e.g. `http://127.0.0.1:8000`. */
  target: string;
  /** How long a transaction keeps its items after DynamoDB Local answered it. Default 15. */
  holdMs?: number;
  /** The table's key attributes. Default `['pk', 'sk']`. */
  keyAttributes?: readonly string[];
  /**
   * How long a global secondary index lags its table: a Query or Scan naming an `IndexName` sees
   * a write only this long after DynamoDB answered it. Default 0: indexes see every write at once.
   */
  indexLagMs?: number;
  /** The region of the proxy's own calls (the index lag's); default eu-central-1. */
  region?: string;
}

export interface DynamoDbSemanticsProxyStats {
  /** TransactWriteItems that took their items (counted when they arrive). */
  transactions: number;
  /** TransactWriteItems and TransactGetItems cancelled here with TransactionConflict. */
  cancelled: number;
  /** Plain writes refused, plus BatchWriteItem requests handed back as unprocessed. */
  writesRefused: number;
  /** Items held right now. */
  heldItems: number;
  /** Writes not yet visible to index reads (always 0 without `indexLagMs`). */
  indexWritesPending: number;
  /** Times the index lag failed to follow writes (the table's index copy is rebuilt then). */
  indexLagFailures: number;
}

export interface DynamoDbSemanticsProxy {
  endpoint: string;
  stop(): Promise<void>;
  stats(): DynamoDbSemanticsProxyStats;
  /** Resolves once every write answered so far is visible to index reads. */
  settled(): Promise<void>;
}

/** Headers of one connection, not of the request: never forwarded. */
const hopByHop = new Set(['connection', 'keep-alive', 'transfer-encoding', 'te', 'trailer', 'upgrade']);

export async function startDynamoDbSemanticsProxy(
  options: DynamoDbSemanticsProxyOptions,
): Promise<DynamoDbSemanticsProxy> {
  const holdMs = options.holdMs ?? 15;
  const keyAttributes = options.keyAttributes ?? ['pk', 'sk'];
  const target = new URL(options.target);
  if (!Number.isFinite(holdMs) || holdMs < 0) throw new Error(`holdMs must be 0 or more, not ${holdMs}`);
  if (keyAttributes.length === 0) throw new Error('keyAttributes must name at least one attribute');
  const indexLagMs = options.indexLagMs ?? 0;
  if (!Number.isFinite(indexLagMs) || indexLagMs < 0) {
    throw new Error(`indexLagMs must be 0 or more, not ${indexLagMs}`);
  }
  const lag =
    indexLagMs > 0
      ? startIndexLag({ target: options.target, lagMs: indexLagMs, ...regionOf(options) })
      : undefined;

  const held = new Set<string>();
  const releases = new Set<NodeJS.Timeout>();
  const counts = { transactions: 0, cancelled: 0, writesRefused: 0 };
  const agent = new Agent({ keepAlive: true });

  const send = sender(target, agent);

  /**
   * Sends the request on and streams the answer back. `answered` sees the answer before the
   * client does: a client that got the answer of a write finds it pending in settled().
   */
  const forward = async (
    incoming: IncomingMessage,
    body: Buffer,
    response: ServerResponse,
    answered?: (upstream: IncomingMessage) => void,
  ) => {
    const upstream = await send(incoming, body);
    answered?.(upstream);
    return pipeBack(upstream, response);
  };

  /** The index lag follows a write DynamoDB took. */
  const wrote = (items: readonly WrittenItem[]) => (upstream: IncomingMessage) => {
    if (upstream.statusCode === 200 && items.length > 0) lag?.written(items);
  };

  const holdWhile = async (keys: readonly string[], work: () => Promise<void>) => {
    for (const key of keys) held.add(key);
    try {
      await work();
    } finally {
      const release = setTimeout(() => {
        releases.delete(release);
        for (const key of keys) held.delete(key);
      }, holdMs);
      releases.add(release);
    }
  };

  const batchWrite = async (
    incoming: IncomingMessage,
    body: Buffer,
    response: ServerResponse,
    requestItems: BatchWrites,
  ) => {
    const { forward: rest, heldBack } = splitBatchWrites(requestItems, (key) => held.has(key), keyAttributes);
    const refused = countBatchWrites(heldBack);
    if (refused === 0)
      return forward(incoming, body, response, wrote(writtenItems('BatchWriteItem', { RequestItems: rest })));
    counts.writesRefused += refused;
    if (countBatchWrites(rest) === 0) return answer(response, unprocessedOnly(heldBack));
    const request = { ...JSON.parse(body.toString('utf8')), RequestItems: rest };
    const { upstream, upstreamBody } = await sendForRewrite(
      send,
      incoming,
      Buffer.from(JSON.stringify(request)),
    );
    if (upstream.statusCode !== 200) return answer(response, passedOn(upstream, upstreamBody));
    wrote(writtenItems('BatchWriteItem', request))(upstream);
    const result = JSON.parse(upstreamBody.toString('utf8'));
    result.UnprocessedItems = mergeBatchWrites(asBatchWrites(result.UnprocessedItems), heldBack);
    return answer(response, rewritten(upstream, JSON.stringify(result)));
  };

  const handle = async (incoming: IncomingMessage, response: ServerResponse) => {
    const body = await readAll(incoming);
    const operation = dynamoDbOperation(incoming.headers['x-amz-target']?.toString());
    const json = operation ? parseJson(body) : undefined;
    const written = lag ? writtenItems(operation, json) : [];
    if (lag) {
      const lagged = await laggingRead(lag, operation, json);
      if (lagged) return readLagging(send, incoming, response, lagged);
      if (operation === 'ListTables') return listTables(send, lag, incoming, body, response);
      // The copies exist before the first write of their table goes on (they start from the table).
      await lag.prepare(written.map((item) => item.tableName));
    }
    const request = keyedRequest(operation, json, keyAttributes);
    switch (request.kind) {
      case 'transaction': {
        const conflicting = request.keys.map((key) => held.has(key));
        if (conflicting.includes(true)) {
          counts.cancelled++;
          return answer(response, transactionCancelled(conflicting));
        }
        if (!request.writes) return forward(incoming, body, response);
        counts.transactions++;
        return holdWhile(request.keys, () => forward(incoming, body, response, wrote(written)));
      }
      case 'single-write':
        if (!held.has(request.key)) return forward(incoming, body, response, wrote(written));
        counts.writesRefused++;
        return answer(response, transactionConflict());
      case 'batch-write':
        return batchWrite(incoming, body, response, request.requestItems);
      default:
        return forward(incoming, body, response, () => lag && followTableChanges(lag, operation, json));
    }
  };

  const server = createServer((incoming, response) => {
    handle(incoming, response).catch((error: unknown) => {
      if (response.headersSent) response.destroy();
      else answer(response, proxyFailed(error));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    endpoint: `http://127.0.0.1:${port}`,
    stats: () => ({
      ...counts,
      heldItems: held.size,
      indexWritesPending: lag?.pending() ?? 0,
      indexLagFailures: lag?.failures() ?? 0,
    }),
    settled: async () => lag?.settled(),
    stop: async () => {
      for (const release of releases) clearTimeout(release);
      releases.clear();
      held.clear();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      agent.destroy();
      await lag?.stop();
    },
  };
}

const regionOf = (options: DynamoDbSemanticsProxyOptions) =>
  options.region ? { region: options.region } : {};

/** A Query or Scan of a GSI of a table the index lag follows: the request to send to its copy. */
async function laggingRead(lag: IndexLag, operation: string | undefined, json: unknown) {
  const read = indexRead(operation, json);
  const shadowName = read && (await lag.shadowFor(read.tableName, read.indexName));
  if (!read || !shadowName) return undefined;
  return { request: json as Record<string, unknown>, tableName: read.tableName, shadowName };
}

/**
 * A table created, changed or deleted through the proxy gets a new copy on next use (its indexes
 * may differ); a PartiQL write, whose items are not read here, renews every copy.
 */
function followTableChanges(lag: IndexLag, operation: string | undefined, json: unknown): void {
  const tableName = (json as { TableName?: unknown } | undefined)?.TableName;
  if (operation === 'CreateTable' || operation === 'UpdateTable' || operation === 'DeleteTable') {
    if (typeof tableName === 'string') lag.forget(tableName);
  } else if (partiqlWrite(operation, json)) {
    lag.forgetAll();
  }
}

type Send = (
  incoming: IncomingMessage,
  body: Buffer,
  headers?: IncomingHttpHeaders,
) => Promise<IncomingMessage>;

/** Sends a request on to the target, with `body` in place of the one it came with. */
function sender(target: URL, agent: Agent): Send {
  return (incoming, body, headers = incoming.headers) =>
    new Promise<IncomingMessage>((resolve, reject) => {
      const outgoing = httpRequest(
        {
          protocol: target.protocol,
          hostname: target.hostname,
          port: target.port,
          method: incoming.method,
          path: incoming.url,
          headers: { ...withoutHopByHop(headers), 'content-length': String(body.length) },
          agent,
        },
        resolve,
      );
      outgoing.once('error', reject);
      outgoing.end(body);
    });
}

/** Sends the request on and reads the whole answer, asked for as plain JSON (it may be rewritten). */
async function sendForRewrite(send: Send, incoming: IncomingMessage, body: Buffer) {
  const { 'accept-encoding': _encoding, ...headers } = incoming.headers;
  const upstream = await send(incoming, body, headers);
  return { upstream, upstreamBody: await readAll(upstream) };
}

/** A Query or Scan of an index, sent to the lagging copy; the copy's name never shows. */
async function readLagging(
  send: Send,
  incoming: IncomingMessage,
  response: ServerResponse,
  read: { request: Record<string, unknown>; tableName: string; shadowName: string },
): Promise<void> {
  const body = Buffer.from(JSON.stringify({ ...read.request, TableName: read.shadowName }));
  const { upstream, upstreamBody } = await sendForRewrite(send, incoming, body);
  const text = upstreamBody.toString('utf8');
  if (!text.includes(read.shadowName)) return answer(response, passedOn(upstream, upstreamBody));
  return answer(response, rewritten(upstream, text.replaceAll(read.shadowName, read.tableName)));
}

/** ListTables without the index lag's copies. */
async function listTables(
  send: Send,
  lag: IndexLag,
  incoming: IncomingMessage,
  body: Buffer,
  response: ServerResponse,
): Promise<void> {
  const { upstream, upstreamBody } = await sendForRewrite(send, incoming, body);
  if (upstream.statusCode !== 200) return answer(response, passedOn(upstream, upstreamBody));
  const result = JSON.parse(upstreamBody.toString('utf8'));
  if (Array.isArray(result.TableNames)) {
    result.TableNames = result.TableNames.filter((name: unknown) => !lag.isShadow(String(name)));
  }
  return answer(response, rewritten(upstream, JSON.stringify(result)));
}

function withoutHopByHop(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !hopByHop.has(name)));
}

/** The target's answer, status, headers and body as they came (streamed). */
function pipeBack(upstream: IncomingMessage, response: ServerResponse): Promise<void> {
  const headers: string[] = [];
  for (let i = 0; i < upstream.rawHeaders.length; i += 2) {
    const name = upstream.rawHeaders[i] ?? '';
    if (!hopByHop.has(name.toLowerCase())) headers.push(name, upstream.rawHeaders[i + 1] ?? '');
  }
  // The client may have gone already (it gave up while DynamoDB worked): then 'close' has been
  // emitted and never comes again, and a transaction waiting here would hold its items forever.
  if (response.destroyed || response.writableEnded) {
    upstream.resume();
    return Promise.resolve();
  }
  response.writeHead(upstream.statusCode ?? 502, upstream.statusMessage, headers);
  return new Promise<void>((resolve, reject) => {
    upstream.once('error', reject);
    response.once('close', () => resolve());
    upstream.pipe(response);
  });
}

/** A buffered answer of the target, unchanged. */
function passedOn(upstream: IncomingMessage, body: Buffer): BufferedAnswer {
  const headers = withoutHopByHop(upstream.headers) as Record<string, string>;
  return { status: upstream.statusCode ?? 502, headers, body: body.toString('utf8') };
}

/** The target's answer with another body: its checksum no longer holds, so it goes. */
function rewritten(upstream: IncomingMessage, body: string): BufferedAnswer {
  const { 'x-amz-crc32': _crc, ...headers } = withoutHopByHop(upstream.headers) as Record<string, string>;
  return {
    status: upstream.statusCode ?? 502,
    headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
    body,
  };
}

/** A BatchWriteItem none of whose items could be written: DynamoDB answers 200 with all unprocessed. */
function unprocessedOnly(heldBack: BatchWrites): BufferedAnswer {
  const body = JSON.stringify({ UnprocessedItems: heldBack });
  return {
    status: 200,
    headers: {
      'content-type': 'application/x-amz-json-1.0',
      'content-length': String(Buffer.byteLength(body)),
      'x-amzn-RequestId': randomUUID(),
    },
    body,
  };
}

function answer(response: ServerResponse, { status, headers, body }: BufferedAnswer): void {
  response.writeHead(status, headers);
  response.end(body);
}

function readAll(stream: IncomingMessage): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.once('end', () => resolve(Buffer.concat(chunks)));
    stream.once('error', reject);
  });
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}
