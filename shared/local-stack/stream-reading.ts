/**
 * Reading one shard a page at a time: an iterator from the checkpoint (or TRIM_HORIZON when
 * there is none or it is no longer valid), GetRecords, the page handed to the batch dispatch,
 * and the next iterator; a shard without a next iterator is read to its end.
 */
import {
  type DynamoDBStreamsClient,
  GetRecordsCommand,
  type GetRecordsCommandOutput,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import { type BatchDispatch, dispatchBatch } from './stream-batches.ts';
import { describeError } from './stream-poller-log.ts';
import type { ShardState, StreamShards } from './stream-shards.ts';

export interface ShardReading {
  streams: DynamoDBStreamsClient;
  send: { abortSignal: AbortSignal };
  /** Most records asked of one GetRecords call (each page is one batch). */
  batchSize: number;
  shards: StreamShards;
  dispatch: BatchDispatch;
}

/** Reads one page of a shard and processes it. Returns whether anything happened (records or shard end). */
export async function pollShard(reading: ShardReading, shard: ShardState): Promise<boolean> {
  const { streams, send, shards, dispatch } = reading;
  const streamArn = shards.streamArn!;
  shard.iterator ??= await iteratorFor(reading, streamArn, shard);
  if (shard.iterator === undefined) {
    shard.finished = true;
    shards.requestRefresh();
    return true;
  }
  let page: GetRecordsCommandOutput;
  try {
    page = await streams.send(
      new GetRecordsCommand({ ShardIterator: shard.iterator, Limit: reading.batchSize }),
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
      dispatch.log('records behind the checkpoint were trimmed; reading the shard from TRIM_HORIZON', {
        shardId: shard.shardId,
      });
      dispatch.checkpoints.forget(shard.shardId);
      shard.iterator = undefined;
      return true;
    }
    throw error;
  }
  const records = page.Records ?? [];
  if (records.length > 0) {
    const completed = await dispatchBatch(dispatch, { shardId: shard.shardId, streamArn }, records);
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
    shards.requestRefresh();
    return true;
  }
  return records.length > 0;
}

async function iteratorFor(
  reading: ShardReading,
  streamArn: string,
  shard: ShardState,
): Promise<string | undefined> {
  const { streams, send, dispatch } = reading;
  const after = dispatch.checkpoints.after(shard.shardId);
  if (after !== undefined) {
    try {
      const result = await streams.send(
        new GetShardIteratorCommand({
          StreamArn: streamArn,
          ShardId: shard.shardId,
          ShardIteratorType: 'AFTER_SEQUENCE_NUMBER',
          SequenceNumber: after,
        }),
        send,
      );
      return result.ShardIterator;
    } catch (error) {
      if (!isRejectedPosition(error)) throw error;
      dispatch.log('checkpoint rejected; reading the shard from TRIM_HORIZON', {
        shardId: shard.shardId,
        sequenceNumber: after,
        error: describeError(error),
      });
    }
  }
  const result = await streams.send(
    new GetShardIteratorCommand({
      StreamArn: streamArn,
      ShardId: shard.shardId,
      ShardIteratorType: 'TRIM_HORIZON',
    }),
    send,
  );
  return result.ShardIterator;
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
