/**
 * The optimistic-concurrency rules of SPEC.md (rule 8) for every versioned resource, written
 * once: a lock_version equal to the stored one writes and increments, a different one is 409,
 * an omitted or null one is last-write-wins. Last-write-wins still never loses a concurrent
 * write silently: the store write is conditional on the version we read, and we re-read and
 * re-apply the patch when someone wrote in between.
 */
import { DataError } from '../data/data-error.ts';
import type { VersionedResource } from '../data/resource-store.ts';
import { CommonDomainError } from './common-error.ts';
import { serialized } from './keyed-mutex.ts';

const notFound = () => new CommonDomainError('not-found');

/** The lock_version sent differs: the caller learns the current one when it is known. */
function versionConflict(current: number | undefined): CommonDomainError {
  return new CommonDomainError('version-conflict', {
    detail: 'lock_version does not match the stored version.',
    ...(current === undefined ? {} : { data: { current_lock_version: current } }),
  });
}

/** Attempts of a last-write-wins update that keeps losing to writers in other containers. */
const maxAttempts = 8;
const backoff = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * 2 ** attempt));

export interface Timestamped extends VersionedResource {
  created_at: string;
  updated_at: string;
}

export async function updateVersioned<T extends Timestamped>(params: {
  /** Identity of the record (e.g. `area:<workspace>:<id>`): same-key updates queue in-process. */
  key: string;
  load: () => Promise<T | undefined>;
  expectedVersion: number | null | undefined;
  /** The new state (without bookkeeping); may throw validation problems. */
  apply: (current: T) => T;
  save: (next: T, current: T) => Promise<void>;
}): Promise<{ before: T; after: T }> {
  return serialized(params.key, () => updateWithRetries(params));
}

async function updateWithRetries<T extends Timestamped>(params: {
  load: () => Promise<T | undefined>;
  expectedVersion: number | null | undefined;
  apply: (current: T) => T;
  save: (next: T, current: T) => Promise<void>;
}): Promise<{ before: T; after: T }> {
  for (let attempt = 1; ; attempt++) {
    const current = await params.load();
    if (!current) throw notFound();
    const expected = params.expectedVersion;
    if (expected !== undefined && expected !== null && expected !== current.lock_version) {
      throw versionConflict(current.lock_version);
    }
    const next = {
      ...params.apply(current),
      id: current.id,
      created_at: current.created_at,
      lock_version: current.lock_version + 1,
      updated_at: new Date().toISOString(),
    };
    try {
      await params.save(next, current);
      return { before: current, after: next };
    } catch (error) {
      if (!(error instanceof DataError)) throw error;
      if (error.code === 'not-found') throw notFound();
      const lastWriteWins = expected === undefined || expected === null;
      if (error.code === 'version-conflict' && lastWriteWins && attempt < maxAttempts) {
        await backoff(attempt);
        continue;
      }
      if (error.code === 'version-conflict') {
        throw versionConflict(error.storedVersion ?? (await params.load())?.lock_version);
      }
      throw error;
    }
  }
}

/**
 * DELETE takes no lock_version (SPEC.md rule 8): it removes whatever version is stored. The
 * store's delete is still conditional on the version read, because what the delete takes back
 * from the list counters is computed from it; when someone wrote in between, the record is read
 * again and the delete retried.
 */
export async function deleteExisting<T extends VersionedResource>(params: {
  load: () => Promise<T | undefined>;
  remove: (current: T) => Promise<void>;
}): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const current = await params.load();
    if (!current) throw notFound();
    try {
      await params.remove(current);
      return current;
    } catch (error) {
      if (!(error instanceof DataError)) throw error;
      if (error.code === 'not-found') throw notFound();
      if (error.code === 'version-conflict' && attempt < maxAttempts) {
        await backoff(attempt);
        continue;
      }
      if (error.code === 'version-conflict') {
        throw new CommonDomainError('conflict', {
          detail: 'The resource kept changing while it was deleted; retry.',
        });
      }
      throw error;
    }
  }
}

/** Apply a JSON Merge Patch (RFC 7386) of top-level fields: null removes, a value replaces. */
export function mergePatch<T extends Record<string, unknown>>(current: T, patch: Record<string, unknown>): T {
  const next: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (key === 'lock_version' || value === undefined) continue;
    if (value === null) delete next[key];
    else next[key] = value;
  }
  return next as T;
}
