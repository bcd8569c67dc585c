/**
 * Offline sync's scope index for records written before the sync indexer existed
 * (domain/sync/sync-indexer.consumer.ts keeps it from then on): every case, tour and shift held
 * by someone on a day from 7 days back onwards gets its scope entry, its mark (its version, with
 * nothing known of the fields it changed before: a push merging over an older base keeps the
 * server's values) and, for a case with comments, its comment flag. Once per workspace (a marker
 * item), idempotent and safe while the service writes: it only adds entries and creates marks
 * that are absent, and a pull resolves every entry against the record as it is.
 *
 * Cost: one pass over the workspace's cases, tours and shifts (a Query per 1 MB of each), then
 * per record in scope one conditional put of its mark and, for a case, one Query of its comments
 * index; the scope entries in BatchWriteItem calls. The local stack runs it at every start (one
 * GetItem per workspace once done); on AWS `node bin/backfill-sync.ts` (docs/deploy.md).
 */
import { DataError } from '../data/data-error.ts';
import { collectionPk, keys } from '../data/keys.ts';
import { getRecord, putRecord, queryItems, recordOf, writeItem } from '../data/table.ts';
import { commentStore, targetKeyOf } from '../domain/comments/comment.store.ts';
import { syncStore } from '../domain/sync/sync.store.ts';
import { type HeldType, holdingOf } from '../domain/sync/sync-subject.ts';
import { addDays, dayOf, windowDaysBack } from '../domain/sync/sync-window.ts';
import { workspaceIds } from './list-backfill.ts';

/** Raised when what the backfill writes changes (a new held type, a new mark field). */
export const syncBackfillVersion = 1;

const collections: ReadonlyArray<[HeldType, 'CASE' | 'TOUR' | 'SHIFT']> = [
  ['case', 'CASE'],
  ['tour', 'TOUR'],
  ['shift', 'SHIFT'],
];

export async function backfillSyncScopes(progress: (message: string) => void = () => {}): Promise<number> {
  const from = addDays(dayOf(Date.now()), -windowDaysBack);
  let indexed = 0;
  for (const workspaceId of await workspaceIds()) {
    const marker = keys.syncBackfill(workspaceId);
    if (Number((await getRecord(marker, { consistent: true }))?.version) >= syncBackfillVersion) continue;
    const store = syncStore(workspaceId);
    for (const [type, collection] of collections) {
      const moves: Parameters<typeof store.moveScope>[0][number][] = [];
      const commented: string[] = [];
      for await (const raw of queryItems({
        partitionKey: { name: 'pk', value: collectionPk(workspaceId, collection) },
        pageSize: () => 1000,
      })) {
        const record = recordOf(raw) as { id: string; lock_version?: number };
        const holding = holdingOf(type, record);
        if (!holding || holding.day < from) continue;
        moves.push({
          userId: holding.userId,
          entry: { type, id: record.id, day: holding.day },
          present: true,
        });
        await markOnce(workspaceId, type, record.id, Number(record.lock_version ?? 0));
        if (type === 'case') {
          const ids = await commentStore.of(workspaceId).allIds(targetKeyOf('core:case', record.id));
          if (ids.length > 0) commented.push(record.id);
        }
      }
      await store.moveScope(moves);
      await store.flagCasesWithComments(commented);
      indexed += moves.length;
    }
    await putRecord(marker, 'sync_backfill', { version: syncBackfillVersion });
  }
  progress(`offline sync: ${indexed} records put in their holders' scopes`);
  return indexed;
}

/** A mark for a record the indexer has not seen: its version, its earlier changes unknown. */
async function markOnce(workspaceId: string, type: HeldType, id: string, version: number): Promise<void> {
  try {
    await writeItem({
      kind: 'create',
      key: keys.syncRecord(workspaceId, type, id),
      entity: 'sync_record',
      record: { version, fields: {}, complete_after: version },
    });
  } catch (error) {
    // The indexer marked it meanwhile: its mark is newer.
    if (!(error instanceof DataError && error.code === 'already-exists')) throw error;
  }
}
