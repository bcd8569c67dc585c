/**
 * Storage of one kind of workspace resource, each write committed together with its domain
 * event and, for a listed collection, with what its list declaration (<entity>.list.ts) makes every
 * write maintain: index attributes, counters, search tokens. Entity stores are one line each on
 * top of this, so neither the outbox nor a counter can be forgotten, and every key goes through
 * keys.ts.
 */
import type { DomainEvent } from '../events/domain-event.ts';
import { type CollectionName, collectionPk, type WorkspaceId } from './keys.ts';
import { indexedItem, type ListSpec, listWrites } from './list-index.ts';
import { workspaceScope } from './list-patterns.ts';
import { type ListRequest, listPage } from './list-read.ts';
import { searchMatches } from './list-search.ts';
import { outboxWrite } from './outbox.ts';
import {
  getRecord,
  getRecords,
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

/** A workspace, or anything acting in one (an Actor): what a store is scoped to. */
export type StoreScope = WorkspaceId | { readonly workspaceId: WorkspaceId };

/** One workspace's records of a resource: every call is scoped to it by construction. */
export interface WorkspaceStore<T extends VersionedResource> {
  /** One GetItem; undefined when absent in this workspace. */
  get(id: string): Promise<T | undefined>;
  /** The same, strongly consistent: what was written last (a rotated secret, a disabled flag). */
  getConsistent(id: string): Promise<T | undefined>;
  /** Many by id, in the order asked (undefined: absent): one BatchGetItem per 100 ids. */
  getMany(ids: readonly string[]): Promise<Array<T | undefined>>;
  /** The same, strongly consistent (what a conditional write is about to be checked against). */
  getManyConsistent(ids: readonly string[]): Promise<Array<T | undefined>>;
  /** The whole collection of the workspace (one Query per 1 MB): for setup work, never for a list. */
  list(): Promise<T[]>;
  /** One page of the collection through its list indexes (list-read.ts). */
  page(request: Omit<ListRequest, 'scope'>): Promise<{ items: T[]; total: number }>;
  /**
   * Every record holding a token starting with `token` (list-index.ts `tokens`): one Query of the
   * token partition's key range and one BatchGetItem per 100, no planner, no totals, nothing kept.
   */
  withToken(token: string): Promise<T[]>;
  /** Insert with its event in one transaction; `extra` joins the same transaction. */
  create(resource: T, event: DomainEvent, extra?: TableWrite[]): Promise<void>;
  /**
   * The writes of `create`, `replace` and `remove` without sending them: to join one transaction
   * with another record's (a booking writes a case and its tours together).
   */
  writes: {
    create(resource: T, event: DomainEvent): TableWrite[];
    replace(resource: T, current: T, event: DomainEvent): TableWrite[];
    remove(current: T, event: DomainEvent): TableWrite[];
  };
  /** Replace `current` (the version read) if the stored version is still its lock_version. */
  replace(resource: T, current: T, event: DomainEvent, extra?: TableWrite[]): Promise<void>;
  /** Delete `current` (as read). */
  remove(current: T, event: DomainEvent, extra?: TableWrite[]): Promise<void>;
  key(id: string): Key;
}

export interface ResourceStore<T extends VersionedResource> {
  /** The records of one workspace: `areaStore.of(actor).get(id)`. */
  of(scope: StoreScope): WorkspaceStore<T>;
}

export interface ResourceStoreOptions<T> {
  /**
   * The record as the service reads it: what records written before a field existed get as its
   * value (a tour's stops their PENDING status). Applied to every read of the store.
   */
  asRead?: (record: T) => T;
  /**
   * Items that follow from the record and so move in every transaction that writes it, like its
   * list entries (a case's due-time index, cases/case-due-index.ts): the writes from `before`
   * (none on create) to `after` (none on delete).
   */
  alongside?: (workspaceId: WorkspaceId, before: T | undefined, after: T | undefined) => TableWrite[];
}

export function resourceStore<T extends VersionedResource>(
  entity: string,
  collection: CollectionName,
  list?: ListSpec<T>,
  options: ResourceStoreOptions<T> = {},
): ResourceStore<T> {
  return {
    of(scope) {
      const workspaceId = typeof scope === 'string' ? scope : scope.workspaceId;
      return workspaceStore(entity, collection, workspaceId, list, options);
    },
  };
}

function workspaceStore<T extends VersionedResource>(
  entity: string,
  collection: CollectionName,
  workspaceId: WorkspaceId,
  list: ListSpec<T> | undefined,
  { asRead, alongside }: ResourceStoreOptions<T>,
): WorkspaceStore<T> {
  const key = (id: string): Key => ({ pk: collectionPk(workspaceId, collection), sk: id });
  const read = <R extends T | undefined>(record: R): R => (record && asRead ? (asRead(record) as R) : record);
  const scope = workspaceScope(workspaceId);
  const stored = (resource: T): StoredRecord =>
    list ? indexedItem(list, scope, resource) : ({ ...resource } as StoredRecord);
  const listed = (before: T | undefined, after: T | undefined): TableWrite[] => [
    ...(list ? listWrites(list, scope, before, after) : []),
    ...(alongside ? alongside(workspaceId, before, after) : []),
  ];
  const writes: WorkspaceStore<T>['writes'] = {
    create: (resource, event) => [
      { kind: 'create', key: key(resource.id), entity, record: stored(resource) },
      outboxWrite(event),
      ...listed(undefined, resource),
    ],
    replace: (resource, current, event) => [
      {
        kind: 'replace',
        key: key(resource.id),
        entity,
        record: stored(resource),
        expectedVersion: current.lock_version,
      },
      outboxWrite(event),
      ...listed(current, resource),
    ],
    remove: (current, event) => [
      { kind: 'delete', key: key(current.id), expectedVersion: current.lock_version },
      outboxWrite(event),
      ...listed(current, undefined),
    ],
  };
  return {
    key,
    async get(id) {
      return read((await getRecord(key(id))) as T | undefined);
    },
    async getConsistent(id) {
      return read((await getRecord(key(id), { consistent: true })) as T | undefined);
    },
    async getMany(ids) {
      return ((await getRecords(ids.map(key))) as Array<T | undefined>).map(read);
    },
    async getManyConsistent(ids) {
      return ((await getRecords(ids.map(key), { consistent: true })) as Array<T | undefined>).map(read);
    },
    async list() {
      return ((await queryPartition(collectionPk(workspaceId, collection))) as T[]).map(read);
    },
    async withToken(token) {
      if (!list) throw new Error(`${entity} has no list declaration`);
      const matches = await searchMatches(list, scope, [token]);
      const found = await getRecords(matches.map((match) => key(String(match.id))));
      const records = found.filter(
        (record): record is StoredRecord => record !== undefined,
      ) as unknown as T[];
      return records.map(read);
    },
    async page(request) {
      if (!list) throw new Error(`${entity} has no list declaration`);
      const { items, total } = await listPage(list, { ...request, scope });
      return { items: (items as unknown as T[]).map(read), total };
    },
    async create(resource, event, extra = []) {
      await transactWrite([...writes.create(resource, event), ...extra]);
    },
    async replace(resource, current, event, extra = []) {
      await transactWrite([...writes.replace(resource, current, event), ...extra]);
    },
    async remove(current, event, extra = []) {
      await transactWrite([...writes.remove(current, event), ...extra]);
    },
    writes,
  };
}
