/**
 * Storage of associations between custom-object instances: one item per associated pair of a
 * relation (keys.ts `association`, a partition per relation, sort key `<a id>#<b id>`), written
 * in one transaction with its event and the link sets of both instances (instance.store.ts
 * `linkWrite`), so the pair and the links never disagree.
 */
import { associationPartition, keys } from '../../data/keys.ts';
import { outboxWrite } from '../../data/outbox.ts';
import type { StoreScope } from '../../data/resource-store.ts';
import {
  discardRecords,
  getRecord,
  queryPartition,
  type TableWrite,
  transactWrite,
} from '../../data/table.ts';
import type { DomainEvent } from '../../events/domain-event.ts';

/** One association as stored. */
export interface AssociationRecord {
  relation_id: string;
  a_id: string;
  b_id: string;
  created_at: string;
}

/** The instances a stored association joins (the relation's sides a and b). */
export interface AssociatedPair {
  relationId: string;
  aId: string;
  bId: string;
}

const entity = 'custom_object_association';

/** The associations of one workspace: every call is scoped to it by construction. */
export interface WorkspaceAssociationStore {
  get(pair: AssociatedPair): Promise<AssociationRecord | undefined>;
  /** The association's create, for another transaction (an instance created with its links). */
  createWrite(record: AssociationRecord): TableWrite;
  /** The association with its event and `links` (both instances' link sets); `already-exists` when the pair is. */
  create(record: AssociationRecord, event: DomainEvent, links: readonly TableWrite[]): Promise<void>;
  /** Its removal with its event and `links`; `not-found` when the pair is not associated. */
  remove(pair: AssociatedPair, event: DomainEvent, links: readonly TableWrite[]): Promise<void>;
  /** Up to `limit` associations of a relation (any order). */
  ofRelation(relationId: string, limit: number): Promise<AssociationRecord[]>;
  /** Delete these associations whether or not they exist (clean-up after their instances or relation). */
  discard(pairs: readonly AssociatedPair[]): Promise<void>;
}

export const associationStore = {
  of(scope: StoreScope): WorkspaceAssociationStore {
    const workspaceId = typeof scope === 'string' ? scope : scope.workspaceId;
    const key = ({ relationId, aId, bId }: AssociatedPair) =>
      keys.association(workspaceId, relationId, aId, bId);
    const pairOf = (record: AssociationRecord): AssociatedPair => ({
      relationId: record.relation_id,
      aId: record.a_id,
      bId: record.b_id,
    });
    const createWrite = (record: AssociationRecord): TableWrite => ({
      kind: 'create',
      key: key(pairOf(record)),
      entity,
      record: { ...record },
    });
    return {
      async get(pair) {
        return (await getRecord(key(pair))) as AssociationRecord | undefined;
      },
      createWrite,
      async create(record, event, links) {
        await transactWrite([createWrite(record), outboxWrite(event), ...links]);
      },
      async remove(pair, event, links) {
        await transactWrite([{ kind: 'delete', key: key(pair) }, outboxWrite(event), ...links]);
      },
      async ofRelation(relationId, limit) {
        return (await queryPartition(associationPartition(workspaceId, relationId), {
          limit,
        })) as unknown as AssociationRecord[];
      },
      discard: (pairs) => discardRecords(pairs.map(key)),
    };
  },
};
