/**
 * What a table item is to the rest of the service: a key and a plain record. The item metadata
 * (`pk`, `sk`, `entity`, `expires_at`, list index attributes) is added on the way in and
 * stripped on the way out; expired items are treated as absent.
 */
import { itemMeta, listVersion } from './keys.ts';

export interface Key {
  pk: string;
  sk: string;
}

export type StoredRecord = Record<string, unknown>;

/** An item as stored, keys and index attributes included: what list walks read from indexes. */
export type RawItem = Record<string, unknown>;

const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * Marks a record read from an item that carries the current list index attributes: the write
 * path needs to know whether the stored item was counted (list-index.ts). A symbol key, so it
 * never reaches JSON (responses, events) or DynamoDB, but survives the spread copies domain
 * code makes of what it read (`{ ...tag, usage_count }`).
 */
const indexedMark = Symbol('indexed');

export function isIndexed(record: object | undefined): boolean {
  return Boolean(record && (record as Record<symbol, unknown>)[indexedMark]);
}

export function stripMeta(item: Record<string, unknown>): StoredRecord {
  const record = { ...item };
  for (const attribute of itemMeta) delete record[attribute];
  if (item.list_v === listVersion) (record as Record<symbol, unknown>)[indexedMark] = true;
  return record;
}

/** A record of a raw item (its keys and index attributes removed). */
export function recordOf(item: RawItem): StoredRecord {
  return stripMeta(item);
}

export function isExpired(item: Record<string, unknown>): boolean {
  // DynamoDB deletes expired items lazily (and DynamoDB Local never does): reads must filter.
  const expiresAt = item.expires_at;
  return typeof expiresAt === 'number' && expiresAt <= nowSeconds();
}

/**
 * DynamoDB refuses keys longer than 2048 (partition) / 1024 (sort) bytes with a validation
 * error; such a key names nothing that can exist, so a read of it finds nothing.
 */
export function storable(key: Key): boolean {
  return Buffer.byteLength(key.pk) <= 2048 && Buffer.byteLength(key.sk) <= 1024;
}

/** The item that stores `record` under `key`. */
export function toItem(
  key: Key,
  entity: string,
  record: StoredRecord,
  expiresAt?: number,
): Record<string, unknown> {
  return { ...record, ...key, entity, ...(expiresAt ? { expires_at: expiresAt } : {}) };
}
