/**
 * Storage of custom-object relations: a workspace holds tens to hundreds (at most 500), read whole by the
 * GraphQL schema and the relation list of a definition; associations live in their own partitions
 * and on the instances (association.store.ts, instance.store.ts `linkAttribute`). A batch of
 * relations is created whole or not at all.
 */
import { outboxWrite } from '../../data/outbox.ts';
import { resourceStore, type StoreScope, type WorkspaceStore } from '../../data/resource-store.ts';
import { type TableWrite, transactWrite } from '../../data/table.ts';
import type { DomainEvent } from '../../events/domain-event.ts';
import type { StoredRelation } from './relation.schema.ts';

const entity = 'custom_object_relation';
const relations = resourceStore<StoredRelation>(entity, 'CO_REL');

/** The relations of one workspace: every call is scoped to it by construction. */
export interface WorkspaceRelationStore extends WorkspaceStore<StoredRelation> {
  /** Create every relation of a batch with its event, and `extra`, in one transaction. */
  createAll(
    created: ReadonlyArray<{ relation: StoredRelation; event: DomainEvent }>,
    extra?: readonly TableWrite[],
  ): Promise<void>;
  /** Remove a relation whatever its version (its definition is gone), with `extra`, in one transaction. */
  discard(relationId: string, extra?: readonly TableWrite[]): Promise<void>;
}

export const relationStore = {
  of(scope: StoreScope): WorkspaceRelationStore {
    const store = relations.of(scope);
    return {
      ...store,
      async createAll(created, extra = []) {
        await transactWrite([
          ...created.flatMap(({ relation, event }) => [
            { kind: 'create', key: store.key(relation.id), entity, record: { ...relation } } as const,
            outboxWrite(event),
          ]),
          ...extra,
        ]);
      },
      async discard(relationId, extra = []) {
        await transactWrite([{ kind: 'discard', key: store.key(relationId) }, ...extra]);
      },
    };
  },
};
