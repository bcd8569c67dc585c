/**
 * What one committed change writes into the users' sync feeds (docs/offline-sync.md, "The change
 * log"): the sync indexer knows, for the changed record, whose scope held it before the change and
 * whose holds it after, and this decides each user's entry:
 *
 * - the record was deleted: `delete` for everyone whose scope held it;
 * - a user whose scope holds it after the change: `upsert` (entering or changing, the app gets it
 *   whole either way);
 * - a user whose scope held it before and not after: `evict` (kept on the server, gone from the
 *   device).
 *
 * A user neither before nor after gets nothing, so a change costs the feeds of the users it
 * concerns, never the workspace's.
 */
export type FeedOp = 'upsert' | 'evict' | 'delete';

export interface FeedEntry {
  userId: string;
  op: FeedOp;
}

export function feedEntries(
  before: ReadonlySet<string>,
  after: ReadonlySet<string>,
  deleted: boolean,
): FeedEntry[] {
  if (deleted) return [...before].sort().map((userId) => ({ userId, op: 'delete' as const }));
  const entries: FeedEntry[] = [...after].map((userId) => ({ userId, op: 'upsert' as const }));
  for (const userId of before) if (!after.has(userId)) entries.push({ userId, op: 'evict' });
  return entries.sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0));
}

/** The users whose scope holds a case: its assignee and the drivers of the open tours it is on. */
export function caseScopeOwners(
  record: { assignee_id?: string | null } | undefined,
  tourDrivers: readonly string[],
): Set<string> {
  if (!record) return new Set();
  const owners = new Set(tourDrivers);
  if (record.assignee_id) owners.add(record.assignee_id);
  return owners;
}

/** The user whose scope holds a tour (its driver) or a shift (its user). */
export function ownerScope(userId: string | null | undefined): Set<string> {
  return new Set(userId ? [userId] : []);
}
