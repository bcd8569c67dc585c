/**
 * What the resolvers of one request share: the workspace's model (the definition behind each
 * type, the relation behind each field), the caller's read access per type (asked once per
 * type), the cache of resolved relation filters, and the record loader.
 *
 * The loader batches: every record asked for while one level of the query resolves (all parents'
 * to-one targets and nested pages) is fetched together, with one BatchGetItem per 100 keys, never
 * a call per row. A level is what is asked before the event loop turns (`setImmediate`), so
 * resolvers that first await the access check still join the same batch. Records already read
 * (the root page) are primed and never read again.
 */
import DataLoader from 'dataloader';
import { GraphQLError } from 'graphql';
import type { Principal } from '../auth/actor.ts';
import type { StoredRecord } from '../data/table.ts';
import { instanceStore } from '../domain/custom-objects/instance.store.ts';
import { instanceAccess } from '../domain/custom-objects/instance-access.ts';
import type { InstanceFilter } from '../domain/custom-objects/instance-filter.ts';
import type { CompiledSchema } from './schema-builder.ts';
import type { WorkspaceModel } from './schema-model.ts';

/** Records one request may read for its nested connections and to-one fields. */
export const maxRecordsPerRequest = 50_000;

export interface GraphQLContext {
  workspaceId: string;
  principal: Principal;
  model: WorkspaceModel;
  compiled: CompiledSchema;
  /** Whether the caller may read the records of an object type. */
  readable(typeName: string): Promise<boolean>;
  /** Records of one definition by id, in the order asked (undefined: gone). */
  load(definitionId: string, ids: readonly string[]): Promise<Array<StoredRecord | undefined>>;
  /** Records already read, so a later level finds them without a call. */
  prime(definitionId: string, records: readonly StoredRecord[]): void;
  /** Relation conditions of filters, resolved once per request (filters.ts `RelatedIds`). */
  related: Map<string, Promise<InstanceFilter>>;
}

const keyOf = (definitionId: string, id: string) => `${definitionId}/${id}`;

export function contextFor(
  workspaceId: string,
  principal: Principal,
  model: WorkspaceModel,
  compiled: CompiledSchema,
): GraphQLContext {
  const access = new Map<string, Promise<boolean>>();
  let recordsRead = 0;
  const loader = new DataLoader<string, StoredRecord | undefined>(
    async (keys) => {
      recordsRead += keys.length;
      if (recordsRead > maxRecordsPerRequest) {
        throw new GraphQLError(
          `The query reads more than ${maxRecordsPerRequest} related records; filter or page the nested connections.`,
          { extensions: { code: 'RESULT_TOO_LARGE' } },
        );
      }
      return instanceStore.getMany(
        workspaceId,
        keys.map((key) => {
          const [definitionId = '', id = ''] = key.split('/');
          return { definitionId, id };
        }),
      );
    },
    { batchScheduleFn: (callback) => setImmediate(callback) },
  );
  return {
    workspaceId,
    principal,
    model,
    compiled,
    readable(typeName) {
      let known = access.get(typeName);
      if (!known) {
        const definition = model.definitions.get(typeName);
        known = definition
          ? instanceAccess(principal, workspaceId, definition).then((granted) => granted.read)
          : Promise.resolve(false);
        access.set(typeName, known);
      }
      return known;
    },
    async load(definitionId, ids) {
      if (ids.length === 0) return [];
      const found = await loader.loadMany(ids.map((id) => keyOf(definitionId, id)));
      return found.map((record) => {
        if (record instanceof Error) throw record;
        return record;
      });
    },
    prime(definitionId, records) {
      for (const record of records) loader.prime(keyOf(definitionId, String(record.id)), record);
    },
    related: new Map(),
  };
}
