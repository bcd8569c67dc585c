/**
 * Storage of custom-object instances: one partition per definition (keys.ts `instancePartition`),
 * each write committed with its domain event and what the definition's list declaration
 * (instance-list.ts) makes it maintain. An instance item also holds its links: per relation side,
 * a string set of the ids it is associated with (`linkAttribute`), written by associations only
 * (relation.store.ts). Edits therefore update the instance's own attributes and never put the
 * whole item, so an association made meanwhile is never lost.
 */

import { instancePartition, keys, type WorkspaceId } from '../../data/keys.ts';
import { indexedItem, listWrites } from '../../data/list-index.ts';
import { workspaceScope } from '../../data/list-patterns.ts';
import { type ListPage, type ListRequest, listPage } from '../../data/list-read.ts';
import { outboxWrite } from '../../data/outbox.ts';
import {
  getRecord,
  getRecords,
  type StoredRecord,
  type TableWrite,
  transactWrite,
} from '../../data/table.ts';
import { tableDefinition } from '../../data/table-definition.ts';
import type { DomainEvent } from '../../events/domain-event.ts';
import type { CustomObjectDefinition } from './definition.schema.ts';
import { instanceList, type StoredInstance } from './instance-list.ts';

export type { StoredInstance } from './instance-list.ts';

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
export function instanceOf(record: StoredRecord): StoredInstance {
  const copy: StoredRecord = { ...record };
  for (const name of Object.keys(copy)) if (name.startsWith('L:')) delete copy[name];
  return copy as unknown as StoredInstance;
}

/** Index attributes an instance item may carry: removed when an order no longer applies. */
const indexAttributes = tableDefinition.indexes.flatMap((index) => [index.partitionKey, index.sortKey]);

export const instanceStore = {
  key: (workspaceId: WorkspaceId, definitionId: string, id: string) =>
    keys.instance(workspaceId, definitionId, id),

  /** One GetItem: the instance with its links, or undefined. */
  async get(workspaceId: WorkspaceId, definitionId: string, id: string): Promise<StoredRecord | undefined> {
    return getRecord(keys.instance(workspaceId, definitionId, id));
  },

  /** Many instances of possibly several definitions: BatchGetItem calls of 100 keys, in the order asked. */
  async getMany(
    workspaceId: WorkspaceId,
    wanted: ReadonlyArray<{ definitionId: string; id: string }>,
  ): Promise<Array<StoredRecord | undefined>> {
    return getRecords(wanted.map(({ definitionId, id }) => keys.instance(workspaceId, definitionId, id)));
  },

  /** One page through the definition's list declaration (instance-list.ts). */
  async page(
    workspaceId: WorkspaceId,
    definition: CustomObjectDefinition,
    request: Omit<ListRequest, 'scope'>,
  ): Promise<ListPage> {
    return listPage(instanceList(definition), { ...request, scope: workspaceScope(workspaceId) });
  },

  async create(
    workspaceId: WorkspaceId,
    definition: CustomObjectDefinition,
    instance: StoredInstance,
    event: DomainEvent,
    extra: TableWrite[] = [],
  ): Promise<void> {
    const spec = instanceList(definition);
    const scope = workspaceScope(workspaceId);
    await transactWrite([
      {
        kind: 'create',
        key: keys.instance(workspaceId, definition.id, instance.id),
        entity: 'custom_object_instance',
        record: indexedItem(spec, scope, instance),
      },
      outboxWrite(event),
      ...listWrites(spec, scope, undefined, instance),
      ...extra,
    ]);
  },

  /** The instance's own attributes replaced (its links kept), if it still has `current`'s lock_version. */
  async update(
    workspaceId: WorkspaceId,
    definition: CustomObjectDefinition,
    next: StoredInstance,
    current: StoredInstance,
    event: DomainEvent,
    extra: TableWrite[] = [],
  ): Promise<void> {
    const spec = instanceList(definition);
    const scope = workspaceScope(workspaceId);
    const item = indexedItem(spec, scope, next);
    await transactWrite([
      {
        kind: 'update',
        key: keys.instance(workspaceId, definition.id, next.id),
        set: item,
        remove: indexAttributes.filter((name) => item[name] === undefined),
        expectedVersion: current.lock_version,
      },
      outboxWrite(event),
      ...listWrites(spec, scope, current, next),
      ...extra,
    ]);
  },

  async remove(
    workspaceId: WorkspaceId,
    definition: CustomObjectDefinition,
    current: StoredInstance,
    event: DomainEvent,
    extra: TableWrite[] = [],
  ): Promise<void> {
    const spec = instanceList(definition);
    await transactWrite([
      {
        kind: 'delete',
        key: keys.instance(workspaceId, definition.id, current.id),
        expectedVersion: current.lock_version,
      },
      outboxWrite(event),
      ...listWrites(spec, workspaceScope(workspaceId), current, undefined),
      ...extra,
    ]);
  },

  partition: instancePartition,
};
