/**
 * Storage of custom-object instances: one partition per definition (keys.ts `instancePartition`),
 * each write committed with its domain event and what the definition's list declaration
 * (instance-list.ts) makes it maintain. An instance item also holds its links: per relation side,
 * a string set of the ids it is associated with (`linkAttribute`), written by associations only
 * (association.store.ts). Edits therefore update the instance's own attributes and never put the
 * whole item, so an association made meanwhile is never lost.
 */

import { DataError } from '../../data/data-error.ts';
import { instancePartition, keys, listKeys } from '../../data/keys.ts';
import { indexedItem, listWrites } from '../../data/list-index.ts';
import { workspaceScope } from '../../data/list-patterns.ts';
import { type ListPage, type ListRequest, listPage } from '../../data/list-read.ts';
import { outboxWrite } from '../../data/outbox.ts';
import type { StoreScope } from '../../data/resource-store.ts';
import {
  discardRecords,
  getRecord,
  getRecords,
  type Key,
  queryItems,
  type StoredRecord,
  type TableWrite,
  transactWrite,
  writeItem,
} from '../../data/table.ts';
import { tableDefinition } from '../../data/table-definition.ts';
import type { DomainEvent } from '../../events/domain-event.ts';
import type { CustomObjectDefinition } from './definition.schema.ts';
import { instanceList, instanceListName, type StoredInstance } from './instance-list.ts';

export type { StoredInstance } from './instance-list.ts';

/** An instance item as read: its fields and its link sets (`L:<relation>:<side>`). */
export type InstanceItem = StoredRecord;

/** The attribute of an instance that holds the ids it links to through one side of a relation. */
export const linkAttribute = (relationId: string, side: 'a' | 'b') => `L:${relationId}:${side}`;

/** The ids an instance (as read) links to through one side of a relation. */
export function linkedIds(record: object, relationId: string, side: 'a' | 'b'): string[] {
  const value = (record as Record<string, unknown>)[linkAttribute(relationId, side)];
  if (value instanceof Set) return [...(value as Set<string>)];
  return Array.isArray(value) ? (value as string[]) : [];
}

/**
 * The instance fields of an item, without its links. A spread copy, so the mark of an item
 * stored with the current list attributes (table.ts `isIndexed`, a symbol key) stays with it.
 */
export function instanceOf(record: InstanceItem): StoredInstance {
  const copy: StoredRecord = { ...record };
  for (const name of Object.keys(copy)) if (name.startsWith('L:')) delete copy[name];
  return copy as unknown as StoredInstance;
}

/** Index attributes an instance item may carry: removed when an order no longer applies. */
const indexAttributes = tableDefinition.indexes.flatMap((index) => [index.partitionKey, index.sortKey]);

/** A change of one link set: ids added (on a ONE side, `atMostOne`), or removed. */
export interface LinkChange {
  add?: readonly string[];
  remove?: readonly string[];
  /** The set may hold no other id afterwards (a ONE side), else the write fails `version-conflict`. */
  atMostOne?: boolean;
}

/** The instances of one workspace: every call is scoped to it by construction. */
export interface WorkspaceInstanceStore {
  key(definitionId: string, id: string): Key;
  /** One GetItem: the instance with its links, or undefined. */
  get(definitionId: string, id: string): Promise<InstanceItem | undefined>;
  /** Many instances of possibly several definitions: BatchGetItem calls of 100 keys, in the order asked. */
  getMany(
    wanted: ReadonlyArray<{ definitionId: string; id: string }>,
  ): Promise<Array<InstanceItem | undefined>>;
  /** One page through the definition's list declaration (instance-list.ts). */
  page(definition: CustomObjectDefinition, request: Omit<ListRequest, 'scope'>): Promise<ListPage>;
  /** The number of instances of a definition: its list's counter. */
  count(definitionId: string): Promise<number>;
  create(
    definition: CustomObjectDefinition,
    instance: StoredInstance,
    event: DomainEvent,
    extra?: readonly TableWrite[],
  ): Promise<void>;
  /** The instance's own attributes replaced (its links kept), if it still has `current`'s lock_version. */
  update(
    definition: CustomObjectDefinition,
    next: StoredInstance,
    current: StoredInstance,
    event: DomainEvent,
    extra?: readonly TableWrite[],
  ): Promise<void>;
  remove(
    definition: CustomObjectDefinition,
    current: StoredInstance,
    event: DomainEvent,
    extra?: readonly TableWrite[],
  ): Promise<void>;
  /** The change of one link set, for an association's transaction; fails `not-found` when the instance is gone. */
  linkWrite(
    definitionId: string,
    id: string,
    relationId: string,
    side: 'a' | 'b',
    change: LinkChange,
  ): TableWrite;
  /** Remove ids from one link set now; an instance that is gone has nothing to remove. */
  unlink(
    definitionId: string,
    id: string,
    relationId: string,
    side: 'a' | 'b',
    ids: readonly string[],
  ): Promise<void>;
  /**
   * Delete up to `limit` instances of a deleted definition (no events: the definition's deletion
   * is the event); whether more remain.
   */
  purge(definitionId: string, limit: number): Promise<boolean>;
  /** Delete the list counters of a definition whose instances are all gone. */
  purgeCounters(definitionId: string): Promise<void>;
}

/** Up to `limit` keys of a partition (of the table, or a key range of it). */
async function keysOf(pk: string, limit: number, beginsWith?: string): Promise<Key[]> {
  const found: Key[] = [];
  for await (const item of queryItems({
    partitionKey: { name: tableDefinition.partitionKey, value: pk },
    sortKeyName: tableDefinition.sortKey,
    ...(beginsWith ? { beginsWith } : {}),
    pageSize: () => limit - found.length,
  })) {
    found.push({ pk: String(item.pk), sk: String(item.sk) });
    if (found.length >= limit) break;
  }
  return found;
}

export const instanceStore = {
  of(scope: StoreScope): WorkspaceInstanceStore {
    const workspaceId = typeof scope === 'string' ? scope : scope.workspaceId;
    const listScope = workspaceScope(workspaceId);
    const key = (definitionId: string, id: string) => keys.instance(workspaceId, definitionId, id);
    const counterKey = (definitionId: string, name: string) =>
      listKeys.counter(listScope, instanceListName(definitionId), name);
    return {
      key,

      get: (definitionId, id) => getRecord(key(definitionId, id)),

      getMany: (wanted) => getRecords(wanted.map(({ definitionId, id }) => key(definitionId, id))),

      page: (definition, request) => listPage(instanceList(definition), { ...request, scope: listScope }),

      async count(definitionId) {
        return Number((await getRecord(counterKey(definitionId, 'all')))?.count ?? 0);
      },

      async create(definition, instance, event, extra = []) {
        const spec = instanceList(definition);
        await transactWrite([
          {
            kind: 'create',
            key: key(definition.id, instance.id),
            entity: 'custom_object_instance',
            record: indexedItem(spec, listScope, instance),
          },
          outboxWrite(event),
          ...listWrites(spec, listScope, undefined, instance),
          ...extra,
        ]);
      },

      async update(definition, next, current, event, extra = []) {
        const spec = instanceList(definition);
        const item = indexedItem(spec, listScope, next);
        await transactWrite([
          {
            kind: 'update',
            key: key(definition.id, next.id),
            set: item,
            remove: indexAttributes.filter((name) => item[name] === undefined),
            expectedVersion: current.lock_version,
          },
          outboxWrite(event),
          ...listWrites(spec, listScope, current, next),
          ...extra,
        ]);
      },

      async remove(definition, current, event, extra = []) {
        const spec = instanceList(definition);
        await transactWrite([
          { kind: 'delete', key: key(definition.id, current.id), expectedVersion: current.lock_version },
          outboxWrite(event),
          ...listWrites(spec, listScope, current, undefined),
          ...extra,
        ]);
      },

      linkWrite: (definitionId, id, relationId, side, change) => ({
        kind: 'link',
        key: key(definitionId, id),
        attribute: linkAttribute(relationId, side),
        ...(change.add ? { add: change.add } : {}),
        ...(change.remove ? { remove: change.remove } : {}),
        ...(change.atMostOne !== undefined ? { atMostOne: change.atMostOne } : {}),
      }),

      async unlink(definitionId, id, relationId, side, ids) {
        if (ids.length === 0) return;
        try {
          await writeItem({
            kind: 'link',
            key: key(definitionId, id),
            attribute: linkAttribute(relationId, side),
            remove: ids,
          });
        } catch (error) {
          if (!(error instanceof DataError && error.code === 'not-found')) throw error;
        }
      },

      async purge(definitionId, limit) {
        const batch = await keysOf(instancePartition(workspaceId, definitionId), limit + 1);
        await discardRecords(batch.slice(0, limit));
        return batch.length > limit;
      },

      async purgeCounters(definitionId) {
        const { pk } = counterKey(definitionId, '');
        await discardRecords(await keysOf(pk, 10_000, `${instanceListName(definitionId)}#`));
      },
    };
  },
};
