/**
 * Where the stream poller resumes: the last processed sequence number per shard, kept in a JSON
 * file that survives restarts (Lambda's event-source mapping keeps the same in AWS's care). The
 * file names its stream: positions of another stream (the table was recreated) are ignored, and
 * an unreadable file means starting at TRIM_HORIZON, said in the log.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { PollerLog } from './stream-poller-log.ts';

interface CheckpointFile {
  streamArn: string;
  shards: Record<string, string>;
}

export class StreamCheckpoints {
  /** null: no file, every start reads from TRIM_HORIZON. */
  readonly #file: string | null;
  readonly #log: PollerLog;
  #fromFile: CheckpointFile | undefined;
  #streamArn: string | undefined;
  #positions = new Map<string, string>();

  constructor(file: string | null, log: PollerLog) {
    this.#file = file;
    this.#log = log;
  }

  /** Reads the file, once at start; a missing file is a first start. */
  async load(): Promise<void> {
    if (this.#file === null) return;
    let text: string;
    try {
      text = await readFile(this.#file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    try {
      const parsed = JSON.parse(text) as Partial<CheckpointFile>;
      if (typeof parsed.streamArn === 'string' && parsed.shards && typeof parsed.shards === 'object') {
        this.#fromFile = { streamArn: parsed.streamArn, shards: { ...parsed.shards } };
        return;
      }
    } catch {
      // Fall through: an unreadable checkpoint means starting over, which must be visible.
    }
    this.#log('checkpoint file unreadable; starting at TRIM_HORIZON', { checkpointFile: this.#file });
  }

  /**
   * The poller reads another stream (first start, or the table was recreated): the positions of
   * the file when they belong to it, none otherwise.
   */
  switchTo(streamArn: string | undefined): void {
    this.#streamArn = streamArn;
    this.#positions = new Map();
    if (streamArn === undefined || this.#fromFile === undefined) return;
    if (this.#fromFile.streamArn === streamArn) {
      this.#positions = new Map(Object.entries(this.#fromFile.shards));
    } else {
      this.#log('checkpoint belongs to another stream; starting at TRIM_HORIZON', {
        checkpointStream: this.#fromFile.streamArn,
        streamArn,
      });
    }
  }

  /** The sequence number a shard was processed up to, if any. */
  after(shardId: string): string | undefined {
    return this.#positions.get(shardId);
  }

  /** The shard's position is gone (trimmed): it is read from TRIM_HORIZON again. */
  forget(shardId: string): void {
    this.#positions.delete(shardId);
  }

  /** The shard is processed up to `sequenceNumber`; saved before this resolves. */
  async advance(shardId: string, sequenceNumber: string | undefined): Promise<void> {
    if (sequenceNumber === undefined) return;
    this.#positions.set(shardId, sequenceNumber);
    await this.#save();
  }

  /** Shards trimmed out of the stream can never be read again; their positions are dead weight. */
  async keepOnly(shardIds: ReadonlySet<string>): Promise<void> {
    let pruned = false;
    for (const shardId of this.#positions.keys()) {
      if (!shardIds.has(shardId)) {
        this.#positions.delete(shardId);
        pruned = true;
      }
    }
    if (pruned) await this.#save();
  }

  async #save(): Promise<void> {
    if (this.#file === null || this.#streamArn === undefined) return;
    const content: CheckpointFile = {
      streamArn: this.#streamArn,
      shards: Object.fromEntries(this.#positions),
    };
    const file = this.#file;
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
}
