/**
 * Which shards of the table's stream there are and which may be read now. The live stream is
 * found by the table's name (a recreated table starts a new one), its shards listed page by
 * page; a child shard is read only once its parent is read to its end, as Lambda does.
 */
import {
  DescribeStreamCommand,
  type DynamoDBStreamsClient,
  ListStreamsCommand,
  type Shard,
  ResourceNotFoundException as StreamsResourceNotFound,
} from '@aws-sdk/client-dynamodb-streams';
import type { StreamCheckpoints } from './stream-checkpoints.ts';
import type { PollerLog } from './stream-poller-log.ts';

const REFRESH_EVERY_MS = 1_000;

export interface ShardState {
  shardId: string;
  parentShardId: string | undefined;
  iterator: string | undefined;
  /** Closed and read to its end: its children may start. */
  finished: boolean;
}

export interface StreamShardsOptions {
  streams: DynamoDBStreamsClient;
  /** Options of every call (the poller's abort signal). */
  send: { abortSignal: AbortSignal };
  tableName: string;
  checkpoints: StreamCheckpoints;
  log: PollerLog;
}

export class StreamShards {
  /** The stream being read; undefined while the table or its stream does not exist. */
  streamArn: string | undefined;
  readonly #opts: StreamShardsOptions;
  #shards = new Map<string, ShardState>();
  #lastRefresh = 0;
  #refreshRequested = true;
  #missingTableLogged = false;

  constructor(opts: StreamShardsOptions) {
    this.#opts = opts;
  }

  /** Lists the shards again before the next read (a shard ended, or writes may have opened new ones). */
  requestRefresh(): void {
    this.#refreshRequested = true;
  }

  /** Lists the stream's shards when asked to, and at least once a second. */
  async refreshIfDue(): Promise<void> {
    if (this.#refreshRequested || Date.now() - this.#lastRefresh >= REFRESH_EVERY_MS) await this.#refresh();
  }

  /** Shards to read now: unfinished, and their parent is finished or gone (Lambda reads a child after its parent). */
  readable(): ShardState[] {
    return [...this.#shards.values()].filter((shard) => {
      if (shard.finished) return false;
      const parent = shard.parentShardId === undefined ? undefined : this.#shards.get(shard.parentShardId);
      return parent === undefined || parent.finished;
    });
  }

  async #refresh(): Promise<void> {
    this.#lastRefresh = Date.now();
    this.#refreshRequested = false;
    const latest = await this.#liveStream();
    if (latest !== this.streamArn) {
      // New stream (first start, or the table was recreated): shard state of the old one is meaningless.
      this.streamArn = latest;
      this.#shards = new Map();
      this.#opts.checkpoints.switchTo(latest);
    }
    if (this.streamArn === undefined) return;

    const next = new Map<string, ShardState>();
    for (const shard of await this.#listShards(this.streamArn)) {
      if (!shard.ShardId) continue;
      next.set(
        shard.ShardId,
        this.#shards.get(shard.ShardId) ?? {
          shardId: shard.ShardId,
          parentShardId: shard.ParentShardId,
          iterator: undefined,
          finished: false,
        },
      );
    }
    this.#shards = next;
    await this.#opts.checkpoints.keepOnly(new Set(next.keys()));
  }

  /** The table's live stream, or undefined (logged once) while there is none. */
  async #liveStream(): Promise<string | undefined> {
    const { streams, send, tableName, log } = this.#opts;
    // ListStreams, not DescribeTable: DynamoDB Local computes a table's item counts and sizes
    // (of every index too) on each DescribeTable, which took over a second at 20,000 users and,
    // once a second, stalled every request queued behind it.
    let latest: string | undefined;
    try {
      const listed = await streams.send(new ListStreamsCommand({ TableName: tableName }), send);
      // A recreated table lists its old streams too; the newest label is the live one.
      latest = (listed.Streams ?? [])
        .filter((stream) => stream.StreamArn !== undefined)
        .sort((a, b) => String(a.StreamLabel).localeCompare(String(b.StreamLabel)))
        .at(-1)?.StreamArn;
    } catch (error) {
      if (!(error instanceof StreamsResourceNotFound)) throw error;
    }
    if (latest === undefined) {
      if (!this.#missingTableLogged)
        log('table or its stream does not exist (yet); waiting for it', { tableName });
      this.#missingTableLogged = true;
    } else {
      this.#missingTableLogged = false;
    }
    return latest;
  }

  async #listShards(streamArn: string): Promise<Shard[]> {
    const listed: Shard[] = [];
    let exclusiveStartShardId: string | undefined;
    do {
      const page = await this.#opts.streams.send(
        new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId: exclusiveStartShardId }),
        this.#opts.send,
      );
      listed.push(...(page.StreamDescription?.Shards ?? []));
      exclusiveStartShardId = page.StreamDescription?.LastEvaluatedShardId;
    } while (exclusiveStartShardId);
    return listed;
  }
}
