/**
 * Brings what was written before the list indexes (or under an older `list_v`) up to date: the
 * index attributes and search tokens of workspaces, users, areas, tags and skills, their
 * counters, the tags' usage index entries and the workspaces' owner pointers.
 *
 * Safe while the service runs: an item is rewritten only while its version is still the one
 * read (a concurrent write, by code that maintains the lists already, wins and is left alone),
 * and its counter changes commit in the same transaction, so every record counts exactly once
 * whether backfill or a write reaches it first. Idempotent: run again, it finds nothing to do.
 * The local stack runs it at every start; on AWS, `bin/backfill-lists.ts` (docs/deploy.md).
 */

import { DataError } from '../data/data-error.ts';
import {
  getWorkspace,
  ownerWrite,
  type PrincipalRecord,
  principalWrites,
  type WorkspaceRecord,
  workspaceWrites,
} from '../data/directory.store.ts';
import { userList, workspaceList } from '../data/directory-lists.ts';
import { type CollectionName, collectionPk, keys, listKeys, listVersion } from '../data/keys.ts';
import { indexedItem, type ListSpec, listWrites } from '../data/list-index.ts';
import { platformScope, workspaceScope } from '../data/list-patterns.ts';
import {
  getRecord,
  indexExistingItem,
  isIndexed,
  queryItems,
  queryPartition,
  recordOf,
  type StoredRecord,
  type TableWrite,
  transactWrite,
} from '../data/table.ts';
import { tableDefinition } from '../data/table-definition.ts';
import { areaList } from '../domain/areas/area.list.ts';
import { skillList } from '../domain/skills/skill.list.ts';
import { tagList } from '../domain/tags/tag.list.ts';
import { tagUsageStore } from '../domain/tags/tag-usage.store.ts';

export interface BackfillReport {
  workspaces: number;
  /** Records given their index attributes and counted, by list. */
  indexed: Record<string, number>;
  /** Records skipped because someone wrote them meanwhile (already indexed by that write). */
  raced: number;
}

/** Commit a record's rewrite with its counters; false when its version changed meanwhile. */
async function commit(writes: TableWrite[]): Promise<boolean> {
  try {
    await transactWrite(writes);
    return true;
  } catch (error) {
    // Someone wrote (or created) it meanwhile, with code that maintains the lists already.
    if (
      error instanceof DataError &&
      (error.code === 'version-conflict' || error.code === 'not-found' || error.code === 'already-exists')
    ) {
      return false;
    }
    throw error;
  }
}

/** The ids of every workspace: the legacy index partition and the workspace list. */
export async function workspaceIds(): Promise<string[]> {
  const ids = new Set<string>();
  for (const entry of await queryPartition(keys.workspaceIndex('').pk)) ids.add(String(entry.id));
  const index = tableDefinition.indexes.find(
    (candidate) => candidate.name === workspaceList.orders.id?.index,
  );
  if (!index) throw new Error('the workspace list has no id order');
  for await (const raw of queryItems({
    index: index.name,
    partitionKey: {
      name: index.partitionKey,
      value: listKeys.indexPartition(platformScope, workspaceList.name),
    },
    pageSize: () => 1000,
  })) {
    ids.add(String(recordOf(raw).id));
  }
  return [...ids];
}

export async function backfillLists(progress: (message: string) => void = () => {}): Promise<BackfillReport> {
  const report: BackfillReport = { workspaces: 0, indexed: {}, raced: 0 };
  const counted = (list: string, done: boolean) => {
    if (done) report.indexed[list] = (report.indexed[list] ?? 0) + 1;
    else report.raced++;
  };

  for (const workspaceId of await workspaceIds()) {
    report.workspaces++;
    const workspace = await getWorkspace(workspaceId);
    if (workspace && !isIndexed(workspace)) {
      const [item, ...listed] = workspaceWrites(workspace, workspace);
      if (item?.kind !== 'put') throw new Error('a workspace write starts with its item');
      counted(
        workspaceList.name,
        await commit([
          { ...item, kind: 'replace', expectedVersion: workspace.lock_version },
          ...listed,
          { kind: 'discard', key: keys.workspaceIndex(workspaceId) },
        ]),
      );
    }

    const principals = (await queryPartition(
      collectionPk(workspaceId, 'PRINCIPAL'),
    )) as unknown as PrincipalRecord[];
    for (const principal of principals) {
      if (isIndexed(principal)) continue;
      const [item, ...listed] = principalWrites(principal, principal);
      if (item?.kind !== 'put') throw new Error('a principal write starts with its item');
      counted(
        userList.name,
        await commit([{ ...item, kind: 'replace', expectedVersion: principal.lock_version }, ...listed]),
      );
    }
    await backfillCollection(workspaceId, 'AREA', 'area', areaList, counted);
    await backfillCollection(workspaceId, 'SKILL', 'skill', skillList, counted);
    const tags = await backfillCollection(workspaceId, 'TAG', 'tag', tagList, counted);
    for (const tag of tags) await backfillTagUsage(workspaceId, String(tag.id), counted);
    await backfillOwner(workspaceId, workspace, principals);
  }
  progress(
    `lists: ${report.workspaces} workspaces checked, ${
      Object.entries(report.indexed)
        .map(([list, n]) => `${n} ${list.toLowerCase()} records indexed`)
        .join(', ') || 'nothing to index'
    }`,
  );
  return report;
}

/** The records of one collection partition that lack the index attributes, rewritten; returns all. */
async function backfillCollection<R extends { id: string; lock_version: number }>(
  workspaceId: string,
  collection: CollectionName,
  entity: string,
  spec: ListSpec<R>,
  counted: (list: string, done: boolean) => void,
): Promise<StoredRecord[]> {
  const scope = workspaceScope(workspaceId);
  const records = await queryPartition(collectionPk(workspaceId, collection));
  for (const record of records) {
    if (isIndexed(record)) continue;
    const typed = record as unknown as R;
    counted(
      spec.name,
      await commit([
        {
          kind: 'replace',
          key: { pk: collectionPk(workspaceId, collection), sk: typed.id },
          entity,
          record: indexedItem(spec, scope, typed),
          expectedVersion: typed.lock_version,
        },
        ...listWrites(spec, scope, typed, typed),
      ]),
    );
  }
  return records;
}

/** A tag's usage counter as an entry of the tags' `byUsage` index (created at 0 when missing). */
async function backfillTagUsage(
  workspaceId: string,
  tagId: string,
  counted: (list: string, done: boolean) => void,
): Promise<void> {
  const key = keys.tagUsage(workspaceId, tagId);
  const counter = await getRecord(key);
  if (counter && isIndexed(counter)) return;
  if (!counter) {
    counted(
      'TAG_USAGE',
      await commit([{ ...tagUsageStore.of(workspaceId).create(tagId), kind: 'create' } as TableWrite]),
    );
    return;
  }
  const done = await indexExistingItem(
    key,
    {
      id: tagId,
      tag_id: tagId,
      gsi6pk: listKeys.indexPartition(workspaceScope(workspaceId), tagList.name),
      list_v: listVersion,
    },
    { from: 'count', to: 'gsi6sk' },
  );
  counted('TAG_USAGE', done);
}

/** The owner pointer, from the principals when missing (an ACTIVE owner first, as before). */
async function backfillOwner(
  workspaceId: string,
  workspace: WorkspaceRecord | undefined,
  principals: readonly PrincipalRecord[],
): Promise<void> {
  if (!workspace || (await getRecord(listKeys.owner(workspaceId)))) return;
  const owners = principals.filter((p) => p.kind === 'user' && p.roles.includes('owner'));
  const owner = owners.find((p) => p.status === 'ACTIVE') ?? owners[0];
  if (owner) await commit([{ ...ownerWrite(workspaceId, owner.id), kind: 'create' } as TableWrite]);
}
