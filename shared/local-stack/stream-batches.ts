/**
 * Hands a page of stream records to the consumers with the rules of Lambda's event-source
 * mapping: the batch is retried from the first failed record (partial batch response), the
 * retry count is per record, a record that still fails after MAX_RETRIES goes to the
 * "on-failure destination" (the log) and is passed over, and the checkpoint follows every
 * record handed on or passed over.
 */
import type { _Record as SdkRecord } from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import type { StreamCheckpoints } from './stream-checkpoints.ts';
import { describeError, type PollerLog } from './stream-poller-log.ts';
import { toLambdaImage, toLambdaRecord } from './stream-records.ts';

/** Lambda's MaximumRetryAttempts as configured for the outbox consumers. */
const MAX_RETRIES = 3;
const RETRY_BASE_MS = 200;

// biome-ignore lint/suspicious/noConfusingVoidType: same as Lambda's DynamoDBStreamHandler, so async handlers that return nothing fit.
export type BatchResult = { batchItemFailures: Array<{ itemIdentifier: string }> } | undefined | void;

export interface BatchDispatch {
  onRecords: (event: DynamoDBStreamEvent) => Promise<BatchResult>;
  region: string;
  checkpoints: StreamCheckpoints;
  log: PollerLog;
  stopped: () => boolean;
  /** A pause that stop() cuts short. */
  sleep: (ms: number) => Promise<void>;
}

/**
 * Hands `records` of one shard to onRecords until each succeeded or was passed over. Returns
 * false when stop() interrupted the retries (the checkpoint says where a restart resumes).
 */
export async function dispatchBatch(
  dispatch: BatchDispatch,
  shard: { shardId: string; streamArn: string },
  records: SdkRecord[],
): Promise<boolean> {
  const { log, checkpoints } = dispatch;
  const { shardId, streamArn } = shard;
  const converted = translated(dispatch, shard, records);
  const advance = (record: SdkRecord) => checkpoints.advance(shardId, record.dynamodb?.SequenceNumber);
  let pending = records.filter((record) => converted.has(record));
  let failingSequenceNumber: string | undefined;
  let retries = 0;
  while (pending.length > 0) {
    let failedIndex: number;
    let error: unknown;
    try {
      const result = await dispatch.onRecords({ Records: pending.map((record) => converted.get(record)!) });
      failedIndex = firstFailedIndex(result, pending);
    } catch (thrown) {
      failedIndex = 0;
      error = thrown;
    }
    if (failedIndex === -1) {
      await advance(pending[pending.length - 1]!);
      return true;
    }
    if (failedIndex > 0) await advance(pending[failedIndex - 1]!);
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
        shardId,
        sequenceNumber,
        eventID: failed.eventID,
        eventName: failed.eventName,
        keys: failed.dynamodb?.Keys === undefined ? undefined : toLambdaImage(failed.dynamodb.Keys),
        attempts: retries + 1,
        error: error === undefined ? 'reported in batchItemFailures' : describeError(error),
      });
      await advance(failed);
      pending = pending.slice(1);
      failingSequenceNumber = undefined;
      retries = 0;
      continue;
    }
    if (dispatch.stopped()) return false;
    retries += 1;
    await dispatch.sleep(RETRY_BASE_MS * 2 ** (retries - 1));
    if (dispatch.stopped()) return false;
  }
  return true;
}

/**
 * The records in Lambda's shape. A record this poller cannot translate is its own problem, not
 * the batch's: it is logged as an on-failure destination would log it and left out (a
 * batch-wide failure would blame, retry and skip every record before it).
 */
function translated(
  dispatch: BatchDispatch,
  shard: { shardId: string; streamArn: string },
  records: SdkRecord[],
): Map<SdkRecord, DynamoDBRecord> {
  const source = { region: dispatch.region, streamArn: shard.streamArn };
  const converted = new Map<SdkRecord, DynamoDBRecord>();
  for (const record of records) {
    try {
      converted.set(record, toLambdaRecord(record, source));
    } catch (error) {
      dispatch.log('stream record could not be translated; skipping it (on-failure destination)', {
        streamArn: shard.streamArn,
        shardId: shard.shardId,
        sequenceNumber: record.dynamodb?.SequenceNumber,
        eventID: record.eventID,
        eventName: record.eventName,
        error: describeError(error),
      });
    }
  }
  return converted;
}

/** Index (in pending) of the first record to retry, or -1 when the whole batch succeeded. */
function firstFailedIndex(result: BatchResult, pending: SdkRecord[]): number {
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
