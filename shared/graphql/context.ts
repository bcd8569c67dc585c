/**
 * What the resolvers of one request share: the workspace's model (the definition behind each
 * type, the relation behind each field), the caller's instance reader (the custom-object domain's
 * instance-read.service.ts: read access asked once per type, pages, records by id), the cache of
 * resolved relation filters, and the record loader.
 *
 * The loader batches: every record asked for while one level of the query resolves (all parents'
 * to-one targets and nested pages) is fetched together, with one BatchGetItem per 100 keys, never
 * a call per row. A level is what is asked before the event loop turns (`setImmediate`), so
 * resolvers that first await the access check still join the same batch. Records already read
 * (the root page) are primed and never read again.
 */
import DataLoader from 'dataloader';
import { GraphQLError } from 'graphql';
import type { Actor } from '../auth/actor.ts';
import {
  type InstanceFilter,
  type InstanceItem,
  type InstanceReader,
  instanceReader,
} from '../domain/custom-objects/instance-read.service.ts';
import type { CompiledSchema } from './schema-builder.ts';
import type { WorkspaceModel } from './schema-model.ts';

/** Records one request may read for its nested connections and to-one fields. */
export const maxRecordsPerRequest = 50_000;

export interface GraphQLContext {
  actor: Actor;
  /** The caller's reads of instances: what it may not read is empty, never an error. */
  reader: InstanceReader;
  model: WorkspaceModel;
  compiled: CompiledSchema;
  /** Whether the caller may read the records of an object type. */
  readable(typeName: string): Promise<boolean>;
  /** Records of one definition by id, in the order asked (undefined: gone). */
  load(definitionId: string, ids: readonly string[]): Promise<Array<InstanceItem | undefined>>;
  /** Records already read, so a later level finds them without a call. */
  prime(definitionId: string, records: readonly InstanceItem[]): void;
  /** Relation conditions of filters, resolved once per request (filters.ts `RelatedIds`). */
  related: Map<string, Promise<InstanceFilter>>;
}

const keyOf = (definitionId: string, id: string) => `${definitionId}/${id}`;

export function contextFor(actor: Actor, model: WorkspaceModel, compiled: CompiledSchema): GraphQLContext {
  const reader = instanceReader(actor, model.definitions.values());
  let recordsRead = 0;
  const loader = new DataLoader<string, InstanceItem | undefined>(
    async (keys) => {
      recordsRead += keys.length;
      if (recordsRead > maxRecordsPerRequest) {
        throw new GraphQLError(
          `The query reads more than ${maxRecordsPerRequest} related records; filter or page the nested connections.`,
          { extensions: { code: 'RESULT_TOO_LARGE' } },
        );
      }
      return reader.getMany(
        keys.map((key) => {
          const [definitionId = '', id = ''] = key.split('/');
          return { definitionId, id };
        }),
      );
    },
    { batchScheduleFn: (callback) => setImmediate(callback) },
  );
  return {
    actor,
    reader,
    model,
    compiled,
    readable(typeName) {
      const definition = model.definitions.get(typeName);
      return definition ? reader.canRead(definition) : Promise.resolve(false);
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
