/**
 * POST /api/v2/sync/pull (API-DECISIONS.md, "Offline sync for field apps"; docs/offline-sync.md,
 * "Pull"). A cursor is a position in the user's feeds, signed, never a clock:
 *
 * - **full** (no cursor, or `reset`): the head is read first, then the scope is read in pages (the
 *   user's held cases with their comments, tours and shifts of the window, by day; then the areas,
 *   tags and skills). Its last page's cursor is that head, so whatever committed meanwhile comes
 *   again in the next pull (an upsert twice is harmless; a change missed would not be);
 * - **incremental**: first, when the day moved on since the cursor, the days that left the window
 *   (evicts) and that entered it (whole); then the feed entries after the cursor up to the head,
 *   each record resolved as it is now (sync-resolve.ts), a record named twice sent once.
 *
 * Pages hold at most `limit` changes and 1 MB (sync-page.ts); `has_more` says to pull again now.
 */
import type { Actor } from '../../auth/actor.ts';
import { CommonDomainError } from '../common-error.ts';
import { type FeedEntry, type SyncStore, sharedFeed, syncStore } from './sync.store.ts';
import { openCursor, type SyncCursor, sealCursor } from './sync-cursor.ts';
import { instancesOf, ReadableTypes } from './sync-instances.ts';
import { pullLimits } from './sync-limits.ts';
import { type SyncChange, SyncPage, versionOf } from './sync-page.ts';
import { catalog } from './sync-records.ts';
import { changeGroups, readableTypes, type SyncReader, type Wanted } from './sync-resolve.ts';
import { dayOf, type SyncWindow, windowMove, windowOn } from './sync-window.ts';

export interface PullInput {
  installation_id: string;
  cursor?: string | undefined;
  limit?: number | undefined;
  reset?: boolean | undefined;
}

export interface PullAnswer {
  cursor: string;
  has_more: boolean;
  changes: SyncChange[];
  last_mutation_id: number;
}

interface Step {
  next: SyncCursor;
  hasMore: boolean;
}

/** After the scope, in this order; custom-object instances last (by type, then id). */
const catalogPhases = ['area', 'tag', 'skill', 'custom_object'] as const;

export function resyncRequired(detail: string): CommonDomainError {
  return new CommonDomainError('conflict', {
    detail: `${detail}: pull again without a cursor (a full pull); keep the mutations not yet pushed.`,
    data: { reason: 'resync_required' },
  });
}

export async function pullChanges(ctx: Actor, input: PullInput, now = Date.now()): Promise<PullAnswer> {
  const userId = ctx.principal.id.toLowerCase();
  const store = syncStore(ctx.workspaceId);
  const caller = { workspaceId: ctx.workspaceId, userId, installationId: input.installation_id };
  const [key, installation] = await Promise.all([
    store.cursorKey(),
    store.installation(userId, input.installation_id),
  ]);
  let cursor: SyncCursor;
  if (!input.cursor || input.reset) {
    const head = await store.head();
    cursor = { ...caller, seq: head.seq, day: dayOf(now), issuedAt: now, full: { phase: 0, head: head.seq } };
  } else {
    const verdict = openCursor(input.cursor, key, caller, now);
    if ('invalid' in verdict) {
      throw new CommonDomainError('invalid', {
        fields: [
          {
            type: 'field-invalid',
            pointer: '#/cursor',
            detail: `${verdict.invalid}: send a cursor a pull returned, or none.`,
          },
        ],
      });
    }
    if ('resync' in verdict) throw resyncRequired(verdict.resync);
    cursor = verdict.ok;
  }
  const reader: SyncReader = {
    workspaceId: ctx.workspaceId,
    userId,
    readable: readableTypes(ctx.principal.grants),
    types: new ReadableTypes(ctx.workspaceId, ctx.principal),
  };
  const page = new SyncPage(input.limit ?? pullLimits.defaultLimit);
  const { next, hasMore } = cursor.full
    ? await fullPage(store, reader, cursor, page)
    : await incrementalPage(store, reader, cursor, page, now);
  return {
    cursor: sealCursor(next, key),
    has_more: hasMore,
    changes: page.changes,
    last_mutation_id: installation?.last_mutation_id ?? 0,
  };
}

/**
 * Adds the scope's held records of `range` after `after` to the page, chunk by chunk; returns the
 * last key added and whether the range is done.
 */
async function addScopeRange(
  store: SyncStore,
  reader: SyncReader,
  window: SyncWindow,
  range: SyncWindow,
  after: string | undefined,
  page: SyncPage,
  options: { onlyHeld?: boolean; enter: boolean },
): Promise<{ after: string | undefined; done: boolean }> {
  let last = after;
  while (!page.full) {
    const chunk: Array<Wanted & { key: string }> = [];
    for await (const entry of store.scope(reader.userId, range.from, range.to, last)) {
      chunk.push({ type: entry.type, id: entry.id, key: entry.key, enter: options.enter });
      if (chunk.length >= Math.max(1, page.room)) break;
    }
    if (chunk.length === 0) return { after: last, done: true };
    const groups = await changeGroups(reader, window, chunk, options);
    for (const [index, group] of groups.entries()) {
      if (!page.add(group)) return { after: last, done: false };
      last = chunk[index]?.key;
    }
  }
  return { after: last, done: false };
}

async function fullPage(
  store: SyncStore,
  reader: SyncReader,
  cursor: SyncCursor,
  page: SyncPage,
): Promise<Step> {
  const full = cursor.full as NonNullable<SyncCursor['full']>;
  const window = windowOn(cursor.day);
  let { phase, after } = full;
  while (phase <= catalogPhases.length && !page.full) {
    if (phase === 0) {
      const range = await addScopeRange(store, reader, window, window, after, page, {
        onlyHeld: true,
        enter: true,
      });
      after = range.after;
      if (!range.done) break;
    } else if (catalogPhases[phase - 1] === 'custom_object') {
      if (reader.readable.has('custom_object')) {
        after = await addInstances(reader, after, page);
        if (page.full) break;
      }
    } else {
      const type = catalogPhases[phase - 1] as 'area' | 'tag' | 'skill';
      if (reader.readable.has(type)) {
        const records = (await catalog(reader.workspaceId, type)).filter(
          (record) => !after || record.id > after,
        );
        for (const record of records) {
          if (!page.add([{ type, id: record.id, op: 'upsert', ...versionOf(record), data: record }])) break;
          after = record.id;
        }
        if (page.full && after !== records.at(-1)?.id) break;
      }
    }
    phase += 1;
    after = undefined;
  }
  if (phase > catalogPhases.length) {
    const { full: _done, ...rest } = cursor;
    return { next: { ...rest, seq: full.head }, hasMore: false };
  }
  return {
    next: { ...cursor, full: { phase, head: full.head, ...(after ? { after } : {}) } },
    hasMore: true,
  };
}

/**
 * Adds the readable types' instances after `after` (`<definition id>/<instance id>`) to the page;
 * returns the last one added.
 */
async function addInstances(reader: SyncReader, after: string | undefined, page: SyncPage) {
  const [afterType, afterId] = after ? (after.split('/') as [string, string]) : [undefined, undefined];
  let last = after;
  for (const definition of await reader.types.readable()) {
    if (afterType && definition.id < afterType) continue;
    const from = definition.id === afterType ? afterId : undefined;
    for await (const instance of instancesOf(reader.workspaceId, definition, from)) {
      if (
        !page.add([
          { type: 'custom_object', id: instance.id, op: 'upsert', ...versionOf(instance), data: instance },
        ])
      ) {
        return last;
      }
      last = `${definition.id}/${instance.id}`;
    }
  }
  return last;
}

/** The entries of the user's feed and the shared one after `seq`, merged, and how far they are complete. */
async function feedEntries(store: SyncStore, reader: SyncReader, seq: number, head: number, fetch: number) {
  const catalogs = catalogPhases.some((type) => reader.readable.has(type));
  const feeds = await Promise.all([
    store.feed(reader.userId, seq, head, fetch),
    catalogs ? store.feed(sharedFeed, seq, head, fetch) : Promise.resolve([]),
  ]);
  // A feed cut at `fetch` is complete only up to its last entry read.
  let complete = head;
  for (const entries of feeds) {
    if (entries.length >= fetch) complete = Math.min(complete, entries.at(-1)?.seq ?? complete);
  }
  const entries = feeds
    .flat()
    .filter((entry) => entry.seq <= complete)
    .sort((a, b) => a.seq - b.seq);
  return { entries, complete };
}

async function incrementalPage(
  store: SyncStore,
  reader: SyncReader,
  cursor: SyncCursor,
  page: SyncPage,
  now: number,
): Promise<Step> {
  const today = dayOf(now);
  const window = windowOn(today);
  let next: SyncCursor = cursor;
  if (cursor.day < today) {
    const move = windowMove(windowOn(cursor.day), window);
    let after = cursor.move;
    for (const [range, enter] of [
      [move.left, false],
      [move.entered, true],
    ] as const) {
      if (!range || (after && after > `${range.to}#\u{10FFFF}`)) continue;
      const added = await addScopeRange(store, reader, window, range, after, page, { enter });
      if (!added.done)
        return { next: { ...cursor, ...(added.after ? { move: added.after } : {}) }, hasMore: true };
      after = added.after;
    }
    const { move: _moved, ...rest } = cursor;
    next = { ...rest, day: today };
  }
  if (page.full) return { next, hasMore: true };
  const head = await store.head();
  const { entries, complete } = await feedEntries(store, reader, next.seq, head.seq, page.room + 1);
  const wanted = new Map<string, Wanted>();
  for (const entry of entries) {
    const key = `${entry.type}#${entry.id}`;
    const known = wanted.get(key);
    if (!known) {
      wanted.set(key, {
        type: entry.type,
        id: entry.id,
        ...(entry.enter ? { enter: true } : {}),
        ...(entry.parent ? { parent: entry.parent } : {}),
      });
    } else if (entry.enter) known.enter = true;
  }
  const order = [...wanted.values()];
  const groups = await changeGroups(reader, window, order);
  const groupOf = new Map(
    order.map((ref, index) => [`${ref.type}#${ref.id}`, groups[index] as SyncChange[]]),
  );
  const sent = new Set<string>();
  let consumed: FeedEntry | undefined;
  for (const entry of entries) {
    const key = `${entry.type}#${entry.id}`;
    if (!sent.has(key)) {
      if (!page.add(groupOf.get(key) ?? [])) break;
      sent.add(key);
    }
    consumed = entry;
  }
  const done = consumed === entries.at(-1) && complete === head.seq;
  if (done) return { next: { ...next, seq: head.seq, issuedAt: now }, hasMore: false };
  return { next: { ...next, seq: consumed?.seq ?? next.seq }, hasMore: true };
}
