/**
 * One page of a pull: changes up to `limit` and up to a byte budget (1 MB for the whole answer),
 * added in groups that stay together (a case with its comments), so an app never holds a case
 * without the comments that came with it. The first group of a page always goes in, so a pull
 * always moves on.
 */
export type ChangeOp = 'upsert' | 'delete' | 'evict';

export interface SyncChange {
  type: string;
  id: string;
  op: ChangeOp;
  /** The record's lock_version; absent for a delete (the record is gone). */
  version?: number;
  data?: Record<string, unknown>;
}

/** The answer's limit; the page leaves room for the envelope (cursor, flags). */
export const maxPageBytes = 1024 * 1024;
const envelopeBytes = 4096;

export class SyncPage {
  readonly changes: SyncChange[] = [];
  private bytes = envelopeBytes;
  full = false;

  private readonly limit: number;

  constructor(limit: number) {
    this.limit = limit;
  }

  get room(): number {
    return this.full ? 0 : this.limit - this.changes.length;
  }

  /** Adds the group if it fits (or the page is empty); false, and the page is full, if not. */
  add(group: readonly SyncChange[]): boolean {
    if (this.full) return false;
    const size = group.reduce((sum, change) => sum + Buffer.byteLength(JSON.stringify(change)) + 1, 0);
    const fits = this.changes.length + group.length <= this.limit && this.bytes + size <= maxPageBytes;
    if (!fits && this.changes.length > 0) {
      this.full = true;
      return false;
    }
    this.changes.push(...group);
    this.bytes += size;
    if (this.changes.length >= this.limit) this.full = true;
    return true;
  }
}

export const versionOf = (record: { lock_version?: unknown } | undefined): { version?: number } =>
  typeof record?.lock_version === 'number' ? { version: record.lock_version } : {};
