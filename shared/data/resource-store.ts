/**
 * Storage of one kind of workspace resource, each write committed together with its domain
 * event and, for a listed collection, with what its list declaration (lists.ts) makes every
 * write maintain: index attributes, counters, search tokens. Entity stores are one line each on
 * top of this, so neither the outbox nor a counter can be forgotten, and every key goes through
 * keys.ts.
 */
import type { DomainEvent } from '../events/domain-event.ts';
import { type CollectionName, collectionPk, type WorkspaceId } from './keys.ts';
import { indexedItem, type ListSpec, listWrites } from './list-index.ts';
import { workspaceScope } from './list-patterns.ts';
import { type ListRequest, listPage } from './list-read.ts';
import { outboxWrite } from './outbox.ts';
import {
  getRecord,
  type Key,
  queryPartition,
  type StoredRecord,
  type TableWrite,
  transactWrite,
} from './table.ts';

export interface VersionedResource {
  id: string;
  lock_version: number;
}

export interface ResourceStore<T extends VersionedResource> {
  /** One GetItem; undefined when absent in this workspace. */
  get(workspaceId: WorkspaceId, id: string): Promise<T | undefined>;
  /** The same, strongly consistent: what was written last (a rotated secret, a disabled flag). */
  getConsistent(workspaceId: WorkspaceId, id: string): Promise<T | undefined>;
  /** The whole collection of the workspace (one Query per 1 MB): for setup work, never for a list. */
  list(workspaceId: WorkspaceId): Promise<T[]>;
  /** One page of the collection through its list indexes (list-read.ts). */
  page(workspaceId: WorkspaceId, request: Omit<ListRequest, 'scope'>): Promise<{ items: T[]; total: number }>;
  /** Insert with its event in one transaction; `extra` joins the same transaction. */
  create(workspaceId: WorkspaceId, resource: T, event: DomainEvent, extra?: TableWrite[]): Promise<void>;
  /** Replace `current` (the version read) if the stored version is still its lock_version. */
  replace(
    workspaceId: WorkspaceId,
    resource: T,
    current: T,
    event: DomainEvent,
    extra?: TableWrite[],
  ): Promise<void>;
  /** Delete `current` (as read). */
  remove(workspaceId: WorkspaceId, current: T, event: DomainEvent, extra?: TableWrite[]): Promise<void>;
  key(workspaceId: WorkspaceId, id: string): Key;
}

export function resourceStore<T extends VersionedResource>(
  entity: string,
  collection: CollectionName,
  list?: ListSpec<T>,
): ResourceStore<T> {
  const key = (workspaceId: WorkspaceId, id: string): Key => ({
    pk: collectionPk(workspaceId, collection),
    sk: id,
  });
  const stored = (workspaceId: WorkspaceId, resource: T): StoredRecord =>
    list ? indexedItem(list, workspaceScope(workspaceId), resource) : ({ ...resource } as StoredRecord);
  const listed = (workspaceId: WorkspaceId, before: T | undefined, after: T | undefined): TableWrite[] =>
    list ? listWrites(list, workspaceScope(workspaceId), before, after) : [];
  return {
    key,
    async get(workspaceId, id) {
      return (await getRecord(key(workspaceId, id))) as T | undefined;
    },
    async getConsistent(workspaceId, id) {
      return (await getRecord(key(workspaceId, id), { consistent: true })) as T | undefined;
    },
    async list(workspaceId) {
      return (await queryPartition(collectionPk(workspaceId, collection))) as T[];
    },
    async page(workspaceId, request) {
      if (!list) throw new Error(`${entity} has no list declaration`);
      const { items, total } = await listPage(list, { ...request, scope: workspaceScope(workspaceId) });
      return { items: items as unknown as T[], total };
    },
    async create(workspaceId, resource, event, extra = []) {
      await transactWrite([
        { kind: 'create', key: key(workspaceId, resource.id), entity, record: stored(workspaceId, resource) },
        outboxWrite(event),
        ...listed(workspaceId, undefined, resource),
        ...extra,
      ]);
    },
    async replace(workspaceId, resource, current, event, extra = []) {
      await transactWrite([
        {
          kind: 'replace',
          key: key(workspaceId, resource.id),
          entity,
          record: stored(workspaceId, resource),
          expectedVersion: current.lock_version,
        },
        outboxWrite(event),
        ...listed(workspaceId, current, resource),
        ...extra,
      ]);
    },
    async remove(workspaceId, current, event, extra = []) {
      await transactWrite([
        { kind: 'delete', key: key(workspaceId, current.id), expectedVersion: current.lock_version },
        outboxWrite(event),
        ...listed(workspaceId, current, undefined),
        ...extra,
      ]);
    },
  };
}
