/**
 * On AWS a Lambda event-source mapping reads the table's stream and invokes the outbox consumers.
 * Locally there is no Lambda service, so this poller plays that part against DynamoDB Local:
 * same event shape, same per-shard ordering, the same partial-batch retry rules and a checkpoint
 * that survives restarts. Handlers therefore run unchanged locally and in the integration tests,
 * and a bug in their failure handling shows up here rather than only on AWS.
 *
 * This file is the loop: rounds over the readable shards, pauses, drained() and stop(). Its
 * parts: stream-shards.ts (which shards to read), stream-reading.ts (a page of a shard),
 * stream-batches.ts (handing a page to the consumers with Lambda's retry rules),
 * stream-checkpoints.ts (where a restart resumes), stream-records.ts (Lambda's record shape).
 */
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { dynamoDbStreamsClient } from '../aws/clients.ts';
import { DEFAULT_REGION } from './create-resources.ts';
import type { BatchDispatch, BatchResult } from './stream-batches.ts';
import { StreamCheckpoints } from './stream-checkpoints.ts';
import { describeError, type PollerLog } from './stream-poller-log.ts';
import { pollShard, type ShardReading } from './stream-reading.ts';
import { StreamShards } from './stream-shards.ts';

export interface StreamPollerOptions {
  endpoint: string;
  region?: string;
  tableName: string;
  /** JSON file with the last processed sequence number per shard; null = start at TRIM_HORIZON every time. */
  checkpointFile: string | null;
  /** Pause between polls once every shard is caught up. */
  intervalMs?: number;
  /**
   * While rounds keep finding nothing, the pause doubles from intervalMs up to this (default:
   * intervalMs, a fixed pause). The local stack pairs it with `wakeOn`, so an idle stack polls
   * slowly and a write of its own is read at once.
   */
  idleIntervalMs?: number;
  /** Subscribes to a signal that records are waiting (the process's table writes); returns the unsubscribe. */
  wakeOn?: (wake: () => void) => () => void;
  /** Most records handed to one onRecords call (GetRecords returns at most 1000). */
  batchSize?: number;
  onRecords: (event: DynamoDBStreamEvent) => Promise<BatchResult>;
  log?: PollerLog;
}

export interface StreamPoller {
  /** Ends the loop; resolves after an in-flight onRecords call has returned. */
  stop(): Promise<void>;
  /** Resolves once every record written before the call has been handed to onRecords (and retried/skipped). */
  drained(): Promise<void>;
}

const ERROR_PAUSE_MS = 1_000;
const GET_RECORDS_MAX = 1_000;
const DEFAULT_BATCH = 100;
/**
 * drained() wants this many consecutive rounds without records: a single empty GetRecords page
 * does not prove a shard is caught up (an iterator can land on an empty stretch).
 */
const EMPTY_ROUNDS_FOR_DRAINED = 2;

interface DrainWaiter {
  registeredInRound: number;
  emptyRounds: number;
  resolve: () => void;
  reject: (error: Error) => void;
}

export function startStreamPoller(opts: StreamPollerOptions): StreamPoller {
  const region = opts.region ?? DEFAULT_REGION;
  const intervalMs = opts.intervalMs ?? 100;
  const idleIntervalMs = Math.max(intervalMs, opts.idleIntervalMs ?? intervalMs);
  const log = safeLog(opts);
  // The service's deadlines: a hanging DynamoDB Local fails a poll (retried on the next tick)
  // instead of stopping the poller for as long as it hangs.
  const streams = dynamoDbStreamsClient({ endpoint: opts.endpoint, region });
  const abort = new AbortController();
  const send = { abortSignal: abort.signal };

  let stopped = false;
  let round = 0;
  let waiters: DrainWaiter[] = [];
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

  const checkpoints = new StreamCheckpoints(opts.checkpointFile, log);
  const shards = new StreamShards({ streams, send, tableName: opts.tableName, checkpoints, log });
  const dispatch: BatchDispatch = {
    onRecords: opts.onRecords,
    region,
    checkpoints,
    log,
    stopped: () => stopped,
    sleep,
  };
  const reading: ShardReading = {
    streams,
    send,
    // Lambda's batch size on AWS (lib/events.ts): a page of GetRecords is handed over in batches
    // of 100, each checkpointed, so a crash replays at most one batch (consumers batch their writes).
    batchSize: Math.max(1, Math.min(opts.batchSize ?? DEFAULT_BATCH, GET_RECORDS_MAX)),
    shards,
    dispatch,
  };

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

  /** One pass over the readable shards: whether it ran without errors, and whether it found records. */
  async function pollRound(): Promise<{ clean: boolean; active: boolean }> {
    let clean = true;
    let active = false;
    try {
      await shards.refreshIfDue();
      for (const shard of shards.readable()) {
        if (stopped) break;
        try {
          if (await pollShard(reading, shard)) active = true;
        } catch (error) {
          if (stopped) break;
          clean = false;
          shard.iterator = undefined;
          log('reading a shard failed; will retry', { shardId: shard.shardId, error: describeError(error) });
        }
      }
    } catch (error) {
      if (!stopped) {
        clean = false;
        log('polling the stream failed; will retry', { error: describeError(error) });
      }
    }
    return { clean, active };
  }

  async function run(): Promise<void> {
    try {
      await checkpoints.load();
    } catch (error) {
      log('could not read the checkpoint file; starting at TRIM_HORIZON', { error: describeError(error) });
    }
    // A write signalled during a round may have missed it: the next round starts at once.
    let written = false;
    let pause = intervalMs;
    const unsubscribe = opts.wakeOn?.(() => {
      written = true;
      pause = intervalMs;
      wake?.();
    });
    try {
      while (!stopped) {
        round += 1;
        const roundId = round;
        written = false;
        const { clean, active } = await pollRound();
        if (stopped) break;
        finishRound(roundId, clean, active);
        if (!clean) await sleep(Math.max(intervalMs, ERROR_PAUSE_MS));
        else if (active) pause = intervalMs;
        else if (!written) {
          // drained() waits for empty rounds: while someone waits, they come at the base pace.
          const next = waiters.length > 0 ? intervalMs : pause;
          pause = Math.min(pause * 2, idleIntervalMs);
          await sleep(next);
        }
      }
    } finally {
      unsubscribe?.();
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
        shards.requestRefresh();
        wake?.();
      });
    },
  };
}

/** The caller's log, or the console; a broken logger must not stop the poller. */
function safeLog(opts: StreamPollerOptions): PollerLog {
  return (message, details) => {
    try {
      if (opts.log) opts.log(message, details);
      else console.warn(`[stream-poller ${opts.tableName}] ${message}`, details ?? '');
    } catch {
      // A broken logger must not stop the poller.
    }
  };
}
