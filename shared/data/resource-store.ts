/**
 * Storage of one kind of workspace resource, each write committed together with its domain
 * event. Entity stores (area.store.ts, tag.store.ts, ...) are one line each on top of this,
 * so the outbox cannot be forgotten and every key goes through keys.ts.
 */
import type { DomainEvent } from '../events/domain-event.ts';
import { type CollectionName, collectionPk, type WorkspaceId } from './keys.ts';
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
  /** The whole collection of the workspace (one Query per 1 MB). */
  list(workspaceId: WorkspaceId): Promise<T[]>;
  /** Insert with its event in one transaction; `extra` joins the same transaction. */
  create(workspaceId: WorkspaceId, resource: T, event: DomainEvent, extra?: TableWrite[]): Promise<void>;
  /** Replace if the stored version is still `expectedVersion`. */
  replace(
    workspaceId: WorkspaceId,
    resource: T,
    expectedVersion: number,
    event: DomainEvent,
    extra?: TableWrite[],
  ): Promise<void>;
  remove(workspaceId: WorkspaceId, id: string, event: DomainEvent, extra?: TableWrite[]): Promise<void>;
  key(workspaceId: WorkspaceId, id: string): Key;
}

export function resourceStore<T extends VersionedResource>(
  entity: string,
  collection: CollectionName,
): ResourceStore<T> {
  const key = (workspaceId: WorkspaceId, id: string): Key => ({
    pk: collectionPk(workspaceId, collection),
    sk: id,
  });
  return {
    key,
    async get(workspaceId, id) {
      return (await getRecord(key(workspaceId, id))) as T | undefined;
    },
    async list(workspaceId) {
      return (await queryPartition(collectionPk(workspaceId, collection))) as T[];
    },
    async create(workspaceId, resource, event, extra = []) {
      await transactWrite([
        {
          kind: 'create',
          key: key(workspaceId, resource.id),
          entity,
          record: { ...resource } as StoredRecord,
        },
        outboxWrite(event),
        ...extra,
      ]);
    },
    async replace(workspaceId, resource, expectedVersion, event, extra = []) {
      await transactWrite([
        {
          kind: 'replace',
          key: key(workspaceId, resource.id),
          entity,
          record: { ...resource } as StoredRecord,
          expectedVersion,
        },
        outboxWrite(event),
        ...extra,
      ]);
    },
    async remove(workspaceId, id, event, extra = []) {
      await transactWrite([{ kind: 'delete', key: key(workspaceId, id) }, outboxWrite(event), ...extra]);
    },
  };
}
