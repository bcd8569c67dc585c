/**
 * Reading custom-object instances for a query transport (the GraphQL API): what one caller may
 * read, the pages of a definition's instances, instances by id, their links, and the order of a
 * set of them. The rules are REST's: read access is instance-access.ts (the grant, and the
 * permission matrix of a PROTECTED type), pages are instance-query.ts; what differs is how a
 * refusal shows. Here a definition the caller may not read has no instances (an empty page,
 * undefined records), with no error, so a query never learns more than its caller may see
 * (SPEC.md, GraphQL: an empty connection, a null to-one relation).
 *
 * Access is asked once per definition and reader (a PROTECTED type's matrix: one GetItem). A
 * store that is busy or unreachable is a CustomObjectError `unavailable`, whatever read met it.
 */
import type { Actor } from '../../auth/actor.ts';
import { DataError } from '../../data/data-error.ts';
import { comparatorOf } from '../../data/list-read.ts';
import { CustomObjectError } from './custom-object-error.ts';
import type { CustomObjectDefinition } from './definition.schema.ts';
import { type InstanceItem, instanceStore } from './instance.store.ts';
import { instanceAccess } from './instance-access.ts';
import { instanceList } from './instance-list.ts';
import {
  type InstanceOrder,
  type InstancePage,
  type InstanceQuery,
  queryInstances,
} from './instance-query.ts';

export type { InstanceItem } from './instance.store.ts';
export { linkedIds } from './instance.store.ts';
export { type InstanceFilter, matchesFilter } from './instance-filter.ts';
export type { InstanceOrder, InstancePage, InstanceQuery } from './instance-query.ts';

/** What one caller reads of the instances of the definitions it was made with. */
export interface InstanceReader {
  /** Whether the caller may read the definition's instances. */
  canRead(definition: CustomObjectDefinition): Promise<boolean>;
  /** A page of the definition's instances (instance-query.ts); empty when the caller may not read them. */
  query(definition: CustomObjectDefinition, query: InstanceQuery): Promise<InstancePage>;
  /**
   * Instances of possibly several definitions by id, in the order asked (BatchGetItem calls of
   * 100 keys); undefined for one that is gone, of an unknown definition, or not readable.
   */
  getMany(
    wanted: ReadonlyArray<{ definitionId: string; id: string }>,
  ): Promise<Array<InstanceItem | undefined>>;
}

/** The translation of a store outage, for every read of a reader. */
async function available<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof DataError && error.code === 'unavailable') {
      throw new CustomObjectError('unavailable', {
        detail: 'The data store is busy or unavailable; retry shortly.',
        cause: error,
      });
    }
    throw error;
  }
}

const emptyPage = (query: InstanceQuery): InstancePage => ({
  items: [],
  hasMore: false,
  ...(query.withTotal ? { total: 0 } : {}),
});

/** A reader for `actor` over `definitions` (the workspace's model). */
export function instanceReader(actor: Actor, definitions: Iterable<CustomObjectDefinition>): InstanceReader {
  const byId = new Map([...definitions].map((definition) => [definition.id, definition]));
  const access = new Map<string, Promise<boolean>>();
  const canRead = (definition: CustomObjectDefinition) => {
    let known = access.get(definition.id);
    if (!known) {
      known = available(() => instanceAccess(actor.principal, actor.workspaceId, definition)).then(
        (granted) => granted.read,
      );
      access.set(definition.id, known);
    }
    return known;
  };
  const store = instanceStore.of(actor);
  return {
    canRead,
    async query(definition, query) {
      if (!(await canRead(definition))) return emptyPage(query);
      return available(() => queryInstances(actor, definition, query));
    },
    async getMany(wanted) {
      const readable = new Set<string>();
      for (const definitionId of new Set(wanted.map((one) => one.definitionId))) {
        const definition = byId.get(definitionId);
        if (definition && (await canRead(definition))) readable.add(definitionId);
      }
      const asked = wanted.filter((one) => readable.has(one.definitionId));
      const found = asked.length === 0 ? [] : await available(() => store.getMany(asked));
      let next = 0;
      return wanted.map((one) => (readable.has(one.definitionId) ? found[next++] : undefined));
    },
  };
}

/** Instances ordered as a list of the definition would order them (ties by the order's last key). */
export function sortInstances(
  definition: CustomObjectDefinition,
  items: InstanceItem[],
  order: readonly InstanceOrder[],
): InstanceItem[] {
  return items.sort(comparatorOf(instanceList(definition), order));
}
