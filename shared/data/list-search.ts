/**
 * Search through a list's tokens (list-index.ts `tokens`): the token entries that start with the
 * longest search word (every record they name, once), kept when every other word starts one of
 * the record's tokens. Read as a probe first (list-plan.ts: when the probe holds every
 * candidate, they are the answer), then, when the planner wants them all, to the end of the
 * key range: the matches plan and the search's exact count. Token entries hold the shared
 * projection and every token of their record, so no item is read for either.
 */
import type { ListScope } from './keys.ts';
import { listKeys } from './keys.ts';
import type { ListSpec } from './list-index.ts';
import { maxPerQuery } from './list-walk.ts';
import { readBound, tooCostly } from './read-bound.ts';
import { queryItems, type RawItem, recordOf, type StoredRecord } from './table.ts';
import { tableDefinition } from './table-definition.ts';

/** Whether every search word starts one of the tokens. */
export function tokensMatch(tokens: readonly string[], words: readonly string[]): boolean {
  return words.every((word) => tokens.some((token) => token.startsWith(word)));
}

/** The search words, longest first (the longest is the key range read). */
const byLength = (search: readonly string[]) => [...search].sort((a, b) => b.length - a.length);

export interface SearchCandidates {
  /** Distinct records seen so far whose tokens hold every word (the token entries' projection). */
  records: StoredRecord[];
  /** Token entries read so far. */
  entries: number;
  /** Whether the key range is read to its end. */
  complete: boolean;
  /** Whether `rest` stopped at the read bound (read-bound.ts) before the key range's end. */
  readonly truncated: boolean;
  /** Reads the rest of the key range (once): every candidate. */
  rest(): Promise<StoredRecord[]>;
}

/**
 * The candidates of a search, at most `limit` token entries read (one Query call) unless
 * `limit` is undefined: then the whole key range.
 */
export async function searchCandidates<R extends { id: string }>(
  spec: ListSpec<R>,
  scope: ListScope,
  search: readonly string[],
  limit?: number,
): Promise<SearchCandidates> {
  const [longest = '', ...others] = byLength(search);
  let probing = limit !== undefined;
  const walk = queryItems({
    partitionKey: { name: tableDefinition.partitionKey, value: listKeys.searchPartition(scope, spec.name) },
    sortKeyName: tableDefinition.sortKey,
    beginsWith: longest,
    // The probe asks for one entry more than it keeps: whether the range goes on.
    pageSize: () => (probing ? (limit ?? 0) + 1 : maxPerQuery()),
  });
  const seen = new Set<string>();
  const records: StoredRecord[] = [];
  let entries = 0;
  let pending: RawItem | undefined;
  const take = (raw: RawItem) => {
    entries++;
    const record = recordOf(raw);
    const id = String(record.id);
    if (seen.has(id)) return;
    seen.add(id);
    // Token entries hold the projection only: every token of the record rides along
    // (list-index.ts), so further words are checked whatever fields the tokens come from.
    const held = Array.isArray(record.tokens)
      ? (record.tokens as string[])
      : (spec.tokens?.(record as unknown as R) ?? []);
    if (tokensMatch(held, others)) records.push(record);
  };
  // Read with next(), not for-await: leaving a for-await loop would close the walk.
  let complete = true;
  let truncated = false;
  const bound = readBound();
  for (let next = await walk.next(); !next.done; next = await walk.next()) {
    if (limit !== undefined && entries >= limit) {
      pending = next.value;
      complete = false;
      break;
    }
    if (entries >= bound) {
      complete = false;
      truncated = true;
      break;
    }
    take(next.value);
  }
  let rest: Promise<StoredRecord[]> | undefined;
  return {
    records,
    get entries() {
      return entries;
    },
    complete,
    get truncated() {
      return truncated;
    },
    rest() {
      rest ??= (async () => {
        if (complete || truncated) return records;
        probing = false;
        if (pending) take(pending);
        for (let next = await walk.next(); !next.done; next = await walk.next()) {
          if (entries >= bound) {
            truncated = true;
            break;
          }
          take(next.value);
        }
        return records;
      })();
      return rest;
    },
  };
}

/**
 * The records (as their token entries hold them: the shared projection) of which every search
 * word starts a token: the token entries of the longest word, one Query of a key range, checked
 * against the other words. It costs the longest word's matches. For lists that filter further
 * on whole items (devices), which read the matches' items themselves.
 */
export async function searchMatches<R extends { id: string }>(
  spec: ListSpec<R>,
  scope: ListScope,
  search: readonly string[],
): Promise<StoredRecord[]> {
  const candidates = await searchCandidates(spec, scope, search);
  const matches = await candidates.rest();
  // Ordered and filtered by the caller, so every match is needed: past the bound, none is served.
  if (candidates.truncated) throw tooCostly();
  return matches;
}
