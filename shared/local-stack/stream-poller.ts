/**
 * On AWS a Lambda event-source mapping reads the table's stream and invokes the outbox consumers.
 * Locally there is no Lambda service, so this poller plays that part against DynamoDB Local:
 * same event shape, same per-shard ordering, the same partial-batch retry rules and a checkpoint
 * that survives restarts. Handlers therefore run unchanged locally and in the integration tests,
 * and a bug in their failure handling shows up here rather than only on AWS.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  type GetRecordsCommandOutput,
  GetShardIteratorCommand,
  ListStreamsCommand,
  type AttributeValue as SdkAttributeValue,
  type _Record as SdkRecord,
  type Shard,
  ResourceNotFoundException as StreamsResourceNotFound,
} from '@aws-sdk/client-dynamodb-streams';
import type { AttributeValue, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { deadlineConfig, withTotalDeadline } from '../aws/client-deadlines.ts';
import { withoutPerCallExtras } from '../aws/lean-client.ts';
import { DEFAULT_REGION, LOCAL_CREDENTIALS } from './create-resources.ts';

export interface StreamPollerOptions {
  endpoint: string;
  region?: string;
  tableName: string;
  /** JSON file with the last processed sequence number per shard; null = start at TRIM_HORIZON every time. */
  checkpointFile: string | null;
  /** Pause between polls once every shard is caught up. */
  intervalMs?: number;
  /** Most records handed to one onRecords call (GetRecords returns at most 1000). */
  batchSize?: number;
  onRecords: (
    event: DynamoDBStreamEvent,
    // biome-ignore lint/suspicious/noConfusingVoidType: same as Lambda's DynamoDBStreamHandler, so async handlers that return nothing fit.
  ) => Promise<{ batchItemFailures: Array<{ itemIdentifier: string }> } | void>;
  log?: (message: string, details?: Record<string, unknown>) => void;
}

export interface StreamPoller {
  /** Ends the loop; resolves after an in-flight onRecords call has returned. */
  stop(): Promise<void>;
  /** Resolves once every record written before the call has been handed to onRecords (and retried/skipped). */
  drained(): Promise<void>;
}

/** Lambda's MaximumRetryAttempts as configured for the outbox consumers. */
const MAX_RETRIES = 3;
const RETRY_BASE_MS = 200;
const REFRESH_EVERY_MS = 1_000;
const ERROR_PAUSE_MS = 1_000;
const GET_RECORDS_MAX = 1_000;
const DEFAULT_BATCH = 100;
/**
 * drained() wants this many consecutive rounds without records: a single empty GetRecords page
 * does not prove a shard is caught up (an iterator can land on an empty stretch).
 */
const EMPTY_ROUNDS_FOR_DRAINED = 2;

interface ShardState {
  shardId: string;
  parentShardId: string | undefined;
  iterator: string | undefined;
  /** Closed and read to its end: its children may start. */
  finished: boolean;
}

interface DrainWaiter {
  registeredInRound: number;
  emptyRounds: number;
  resolve: () => void;
  reject: (error: Error) => void;
}

interface CheckpointFile {
  streamArn: string;
  shards: Record<string, string>;
}

export function startStreamPoller(opts: StreamPollerOptions): StreamPoller {
  const region = opts.region ?? DEFAULT_REGION;
  const intervalMs = opts.intervalMs ?? 100;
  // Lambda's batch size on AWS (lib/events.ts): a page of GetRecords is handed over in batches of
  // 100, each checkpointed, so a crash replays at most one batch (consumers batch their writes).
  const batchSize = Math.max(1, Math.min(opts.batchSize ?? DEFAULT_BATCH, GET_RECORDS_MAX));
  const log = (message: string, details?: Record<string, unknown>) => {
    try {
      if (opts.log) opts.log(message, details);
      else console.warn(`[stream-poller ${opts.tableName}] ${message}`, details ?? '');
    } catch {
      // A broken logger must not stop the poller.
    }
  };
  // The service's deadlines: a hanging DynamoDB Local fails a poll (retried on the next tick)
  // instead of stopping the poller for as long as it hangs.
  const clientConfig = {
    endpoint: opts.endpoint,
    region,
    credentials: LOCAL_CREDENTIALS,
    ...deadlineConfig(),
  };
  const streams = withTotalDeadline(withoutPerCallExtras(new DynamoDBStreamsClient(clientConfig)));
  const abort = new AbortController();
  const send = { abortSignal: abort.signal };

  let stopped = false;
  let streamArn: string | undefined;
  let shards = new Map<string, ShardState>();
  let checkpoints = new Map<string, string>();
  let fileCheckpoint: CheckpointFile | undefined;
  let lastRefresh = 0;
  let refreshRequested = true;
  let round = 0;
  let waiters: DrainWaiter[] = [];
  let missingTableLogged = false;
  let wake: (() => void) | undefined;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        if (wake === done) wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      wake = done;
    });

  async function loadCheckpointFile(): Promise<void> {
    if (opts.checkpointFile === null) return;
    let text: string;
    try {
      text = await readFile(opts.checkpointFile, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    try {
      const parsed = JSON.parse(text) as Partial<CheckpointFile>;
      if (typeof parsed.streamArn === 'string' && parsed.shards && typeof parsed.shards === 'object') {
        fileCheckpoint = { streamArn: parsed.streamArn, shards: { ...parsed.shards } };
        return;
      }
    } catch {
      // Fall through: an unreadable checkpoint means starting over, which must be visible.
    }
    log('checkpoint file unreadable; starting at TRIM_HORIZON', { checkpointFile: opts.checkpointFile });
  }

  async function saveCheckpoints(): Promise<void> {
    if (opts.checkpointFile === null || streamArn === undefined) return;
    const content: CheckpointFile = { streamArn, shards: Object.fromEntries(checkpoints) };
    const file = opts.checkpointFile;
    const temp = `${file}.${process.pid}.${randomUUID()}.tmp`;
    const text = `${JSON.stringify(content, null, 2)}\n`;
    try {
      // The folder is made when a write finds it missing, not before every write (a checkpoint is
      // saved after every batch: a mkdir each time was a measurable share of a write's CPU).
      await writeFile(temp, text).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
        await mkdir(dirname(file), { recursive: true });
        await writeFile(temp, text);
      });
      // rename is atomic on one file system: a crash leaves the old or the new checkpoint, never half of one.
      await rename(temp, file);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  async function checkpoint(shard: ShardState, record: SdkRecord): Promise<void> {
    const sequenceNumber = record.dynamodb?.SequenceNumber;
    if (sequenceNumber === undefined) return;
    checkpoints.set(shard.shardId, sequenceNumber);
    await saveCheckpoints();
  }

  async function refresh(): Promise<void> {
    lastRefresh = Date.now();
    refreshRequested = false;
    // ListStreams, not DescribeTable: DynamoDB Local computes a table's item counts and sizes
    // (of every index too) on each DescribeTable, which took over a second at 20,000 users and,
    // once a second, stalled every request queued behind it.
    let latest: string | undefined;
    try {
      const listed = await streams.send(new ListStreamsCommand({ TableName: opts.tableName }), send);
      // A recreated table lists its old streams too; the newest label is the live one.
      latest = (listed.Streams ?? [])
        .filter((stream) => stream.StreamArn !== undefined)
        .sort((a, b) => String(a.StreamLabel).localeCompare(String(b.StreamLabel)))
        .at(-1)?.StreamArn;
    } catch (error) {
      if (!(error instanceof StreamsResourceNotFound)) throw error;
    }
    if (latest === undefined) {
      if (!missingTableLogged)
        log('table or its stream does not exist (yet); waiting for it', { tableName: opts.tableName });
      missingTableLogged = true;
    } else {
      missingTableLogged = false;
    }
    if (latest !== streamArn) {
      // New stream (first start, or the table was recreated): shard state of the old one is meaningless.
      streamArn = latest;
      shards = new Map();
      checkpoints = new Map();
      if (latest !== undefined && fileCheckpoint?.streamArn === latest) {
        checkpoints = new Map(Object.entries(fileCheckpoint.shards));
      } else if (latest !== undefined && fileCheckpoint !== undefined) {
        log('checkpoint belongs to another stream; starting at TRIM_HORIZON', {
          checkpointStream: fileCheckpoint.streamArn,
          streamArn: latest,
        });
      }
    }
    if (streamArn === undefined) return;

    const listed: Shard[] = [];
    let exclusiveStartShardId: string | undefined;
    do {
      const page = await streams.send(
        new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId: exclusiveStartShardId }),
        send,
      );
      listed.push(...(page.StreamDescription?.Shards ?? []));
      exclusiveStartShardId = page.StreamDescription?.LastEvaluatedShardId;
    } while (exclusiveStartShardId);

    const next = new Map<string, ShardState>();
    for (const shard of listed) {
      if (!shard.ShardId) continue;
      next.set(
        shard.ShardId,
        shards.get(shard.ShardId) ?? {
          shardId: shard.ShardId,
          parentShardId: shard.ParentShardId,
          iterator: undefined,
          finished: false,
        },
      );
    }
    shards = next;
    // Shards trimmed out of the stream can never be read again; their checkpoints are dead weight.
    let pruned = false;
    for (const shardId of checkpoints.keys()) {
      if (!shards.has(shardId)) {
        checkpoints.delete(shardId);
        pruned = true;
      }
    }
    if (pruned) await saveCheckpoints();
  }

  /** Shards to read now: unfinished, and their parent is finished or gone (Lambda reads a child after its parent). */
  function readableShards(): ShardState[] {
    return [...shards.values()].filter((shard) => {
      if (shard.finished) return false;
      const parent = shard.parentShardId === undefined ? undefined : shards.get(shard.parentShardId);
      return parent === undefined || parent.finished;
    });
  }

  async function iteratorFor(shard: ShardState): Promise<string | undefined> {
    const arn = streamArn!;
    const after = checkpoints.get(shard.shardId);
    if (after !== undefined) {
      try {
        const result = await streams.send(
          new GetShardIteratorCommand({
            StreamArn: arn,
            ShardId: shard.shardId,
            ShardIteratorType: 'AFTER_SEQUENCE_NUMBER',
            SequenceNumber: after,
          }),
          send,
        );
        return result.ShardIterator;
      } catch (error) {
        if (!isRejectedPosition(error)) throw error;
        log('checkpoint rejected; reading the shard from TRIM_HORIZON', {
          shardId: shard.shardId,
          sequenceNumber: after,
          error: describeError(error),
        });
      }
    }
    const result = await streams.send(
      new GetShardIteratorCommand({
        StreamArn: arn,
        ShardId: shard.shardId,
        ShardIteratorType: 'TRIM_HORIZON',
      }),
      send,
    );
    return result.ShardIterator;
  }

  /** Reads one page of a shard and processes it. Returns whether anything happened (records or shard end). */
  async function pollShard(shard: ShardState): Promise<boolean> {
    shard.iterator ??= await iteratorFor(shard);
    if (shard.iterator === undefined) {
      shard.finished = true;
      refreshRequested = true;
      return true;
    }
    let page: GetRecordsCommandOutput;
    try {
      page = await streams.send(
        new GetRecordsCommand({ ShardIterator: shard.iterator, Limit: batchSize }),
        send,
      );
    } catch (error) {
      const name = (error as Error).name;
      if (name === 'ExpiredIteratorException') {
        // Iterators live 15 minutes (a long callback, a suspended laptop): ask again from the checkpoint.
        shard.iterator = undefined;
        return true;
      }
      if (name === 'TrimmedDataAccessException') {
        log('records behind the checkpoint were trimmed; reading the shard from TRIM_HORIZON', {
          shardId: shard.shardId,
        });
        checkpoints.delete(shard.shardId);
        shard.iterator = undefined;
        return true;
      }
      throw error;
    }
    const records = page.Records ?? [];
    if (records.length > 0) {
      const completed = await processBatch(shard, records);
      if (!completed) {
        // Stopped in the middle of retries: the checkpoint says where a restart resumes.
        shard.iterator = undefined;
        return true;
      }
    }
    // An empty page with a NextShardIterator is normal (the shard is open, or the iterator hit a
    // stretch without records); only a missing NextShardIterator ends a shard.
    shard.iterator = page.NextShardIterator;
    if (shard.iterator === undefined) {
      shard.finished = true;
      refreshRequested = true;
      return true;
    }
    return records.length > 0;
  }

  /**
   * Hands the records to onRecords with Lambda's rules: the batch is retried from the first failed
   * record, the retry count is per record, and after MAX_RETRIES the record goes to the "on-failure
   * destination" (the log) and is passed over. Returns false when stop() interrupted the retries.
   */
  async function processBatch(shard: ShardState, records: SdkRecord[]): Promise<boolean> {
    const source = { region, streamArn: streamArn! };
    // A record this poller cannot translate is its own problem, not the batch's: log it as an
    // on-failure destination would and hand the others on (a batch-wide failure would blame,
    // retry and skip every record before it).
    const converted = new Map<SdkRecord, DynamoDBRecord>();
    for (const record of records) {
      try {
        converted.set(record, toLambdaRecord(record, source));
      } catch (error) {
        log('stream record could not be translated; skipping it (on-failure destination)', {
          streamArn,
          shardId: shard.shardId,
          sequenceNumber: record.dynamodb?.SequenceNumber,
          eventID: record.eventID,
          eventName: record.eventName,
          error: describeError(error),
        });
      }
    }
    let pending = records.filter((record) => converted.has(record));
    let failingSequenceNumber: string | undefined;
    let retries = 0;
    while (pending.length > 0) {
      let failedIndex: number;
      let error: unknown;
      try {
        const result = await opts.onRecords({
          Records: pending.map((record) => converted.get(record)!),
        });
        failedIndex = firstFailedIndex(result, pending);
      } catch (thrown) {
        failedIndex = 0;
        error = thrown;
      }
      if (failedIndex === -1) {
        await checkpoint(shard, pending[pending.length - 1]!);
        return true;
      }
      if (failedIndex > 0) await checkpoint(shard, pending[failedIndex - 1]!);
      pending = pending.slice(failedIndex);
      const failed = pending[0]!;
      const sequenceNumber = failed.dynamodb?.SequenceNumber;
      if (sequenceNumber !== failingSequenceNumber) {
        failingSequenceNumber = sequenceNumber;
        retries = 0;
      }
      if (retries >= MAX_RETRIES) {
        log('stream record failed after retries; skipping it (on-failure destination)', {
          streamArn,
          shardId: shard.shardId,
          sequenceNumber,
          eventID: failed.eventID,
          eventName: failed.eventName,
          keys: failed.dynamodb?.Keys === undefined ? undefined : toLambdaImage(failed.dynamodb.Keys),
          attempts: retries + 1,
          error: error === undefined ? 'reported in batchItemFailures' : describeError(error),
        });
        await checkpoint(shard, failed);
        pending = pending.slice(1);
        failingSequenceNumber = undefined;
        retries = 0;
        continue;
      }
      if (stopped) return false;
      retries += 1;
      await sleep(RETRY_BASE_MS * 2 ** (retries - 1));
      if (stopped) return false;
    }
    return true;
  }

  function finishRound(roundId: number, clean: boolean, active: boolean): void {
    const empty = clean && !active;
    const remaining: DrainWaiter[] = [];
    for (const waiter of waiters) {
      if (waiter.registeredInRound >= roundId) {
        remaining.push(waiter);
        continue;
      }
      waiter.emptyRounds = empty ? waiter.emptyRounds + 1 : 0;
      if (waiter.emptyRounds >= EMPTY_ROUNDS_FOR_DRAINED) waiter.resolve();
      else remaining.push(waiter);
    }
    waiters = remaining;
  }

  async function run(): Promise<void> {
    try {
      await loadCheckpointFile();
    } catch (error) {
      log('could not read the checkpoint file; starting at TRIM_HORIZON', { error: describeError(error) });
    }
    while (!stopped) {
      round += 1;
      const roundId = round;
      let clean = true;
      let active = false;
      try {
        if (refreshRequested || Date.now() - lastRefresh >= REFRESH_EVERY_MS) await refresh();
        for (const shard of readableShards()) {
          if (stopped) break;
          try {
            if (await pollShard(shard)) active = true;
          } catch (error) {
            if (stopped) break;
            clean = false;
            shard.iterator = undefined;
            log('reading a shard failed; will retry', {
              shardId: shard.shardId,
              error: describeError(error),
            });
          }
        }
      } catch (error) {
        if (stopped) break;
        clean = false;
        log('polling the stream failed; will retry', { error: describeError(error) });
      }
      if (stopped) break;
      finishRound(roundId, clean, active);
      if (!clean) await sleep(Math.max(intervalMs, ERROR_PAUSE_MS));
      else if (!active) await sleep(intervalMs);
    }
  }

  const running = run()
    .catch((error: unknown) => log('stream poller crashed', { error: describeError(error) }))
    .finally(() => {
      for (const waiter of waiters) waiter.reject(new Error('stream poller stopped before it drained'));
      waiters = [];
      streams.destroy();
    });

  return {
    stop: async () => {
      stopped = true;
      abort.abort();
      wake?.();
      await running;
    },
    drained: () => {
      if (stopped) return Promise.reject(new Error('stream poller is stopped'));
      return new Promise<void>((resolve, reject) => {
        waiters.push({ registeredInRound: round, emptyRounds: 0, resolve, reject });
        // Writes made before this call may have opened new shards.
        refreshRequested = true;
        wake?.();
      });
    },
  };
}

/** Index (in pending) of the first record to retry, or -1 when the whole batch succeeded. */
function firstFailedIndex(
  // biome-ignore lint/suspicious/noConfusingVoidType: what onRecords may resolve to.
  result: { batchItemFailures: Array<{ itemIdentifier: string }> } | undefined | void,
  pending: SdkRecord[],
): number {
  const failures = result?.batchItemFailures ?? [];
  if (failures.length === 0) return -1;
  let first = Number.POSITIVE_INFINITY;
  for (const failure of failures) {
    const index = pending.findIndex((record) => record.dynamodb?.SequenceNumber === failure?.itemIdentifier);
    // Lambda treats an unknown, empty or null itemIdentifier as a failure of the whole batch.
    if (index === -1) return 0;
    first = Math.min(first, index);
  }
  return first;
}

/** The record as Lambda delivers it: plain JSON, binary as base64, the creation time in epoch seconds. */
export function toLambdaRecord(
  record: SdkRecord,
  source: { region: string; streamArn: string },
): DynamoDBRecord {
  const stream = record.dynamodb;
  const created = stream?.ApproximateCreationDateTime;
  const lambdaRecord: DynamoDBRecord = {
    eventID: record.eventID,
    eventName: record.eventName,
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    // DynamoDB Local reports the region as "ddblocal"; handlers should see the configured one.
    awsRegion: source.region,
    dynamodb: {
      ...(created === undefined ? {} : { ApproximateCreationDateTime: Math.floor(created.getTime() / 1000) }),
      ...(stream?.Keys === undefined ? {} : { Keys: toLambdaImage(stream.Keys) }),
      ...(stream?.NewImage === undefined ? {} : { NewImage: toLambdaImage(stream.NewImage) }),
      ...(stream?.OldImage === undefined ? {} : { OldImage: toLambdaImage(stream.OldImage) }),
      SequenceNumber: stream?.SequenceNumber,
      SizeBytes: stream?.SizeBytes,
      StreamViewType: stream?.StreamViewType,
    },
    eventSourceARN: source.streamArn,
  };
  if (record.userIdentity !== undefined) {
    lambdaRecord.userIdentity = {
      type: record.userIdentity.Type,
      principalId: record.userIdentity.PrincipalId,
    };
  }
  return lambdaRecord;
}

export function toLambdaImage(image: Record<string, SdkAttributeValue>): Record<string, AttributeValue> {
  const result: Record<string, AttributeValue> = {};
  for (const [name, value] of Object.entries(image)) result[name] = toLambdaValue(value);
  return result;
}

function toLambdaValue(value: SdkAttributeValue): AttributeValue {
  if (value.S !== undefined) return { S: value.S };
  if (value.N !== undefined) return { N: value.N };
  if (value.B !== undefined) return { B: Buffer.from(value.B).toString('base64') };
  if (value.BOOL !== undefined) return { BOOL: value.BOOL };
  if (value.NULL !== undefined) return { NULL: value.NULL };
  if (value.SS !== undefined) return { SS: value.SS };
  if (value.NS !== undefined) return { NS: value.NS };
  if (value.BS !== undefined) return { BS: value.BS.map((bytes) => Buffer.from(bytes).toString('base64')) };
  if (value.L !== undefined) return { L: value.L.map(toLambdaValue) };
  if (value.M !== undefined) return { M: toLambdaImage(value.M) };
  // DynamoDB Local's stream renders an empty map (e.g. `previous_attributes: {}`) as a bare `{}`,
  // which the SDK hands on without a type key; AWS and Lambda say `{ M: {} }`.
  if (Object.keys(value).length === 0) return { M: {} };
  throw new Error(`Unsupported attribute value in a stream record: ${JSON.stringify(value)}`);
}

/** GetShardIterator errors that mean "this position no longer exists", as opposed to an outage. */
function isRejectedPosition(error: unknown): boolean {
  const name = (error as Error | null)?.name;
  return (
    name === 'TrimmedDataAccessException' ||
    name === 'ExpiredIteratorException' ||
    name === 'ValidationException'
  );
}

function describeError(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}
