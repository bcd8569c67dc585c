/**
 * Storage of custom-object relations: a workspace holds tens to hundreds (at most 500), read whole by the
 * GraphQL schema and the relation list of a definition; associations live in their own partitions
 * and on the instances (instance.store.ts `linkAttribute`).
 */
import { resourceStore } from '../../data/resource-store.ts';
import type { StoredRelation } from './relation.schema.ts';

export const relationStore = resourceStore<StoredRelation>('custom_object_relation', 'CO_REL');
