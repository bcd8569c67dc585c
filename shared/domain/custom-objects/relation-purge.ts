import { DataError } from '../../data/data-error.ts';
import { associationPartition, keys } from '../../data/keys.ts';
import { outboxWrite } from '../../data/outbox.ts';
import {
  discardRecords,
  queryPartition,
  type StoredRecord,
  transactWrite,
  writeItem,
} from '../../data/table.ts';
import type { EventConsumer } from '../../events/consumers.ts';
import { type DomainEvent, systemEvent } from '../../events/domain-event.ts';
import type { CustomObjectDefinition } from './definition.schema.ts';
import { revisionWrite } from './definition-revision.ts';
import { linkAttribute, linkedIds } from './instance.store.ts';
import type { StoredRelation } from './relation.schema.ts';
import { relationStore } from './relation.store.ts';

import { otherSide, resource, type Side, sides } from './relation-sides.ts';

/** Associations removed right after a relation is deleted; the rest by the purger, in steps. */
export const syncPurgeLimit = 200;
export const purgeStep = Number(process.env.FSM_RELATION_PURGE_STEP ?? 1000);

/** Instance link updates in flight at once while purging. */
const purgeConcurrency = 8;

async function inBatches<T>(
  items: readonly T[],
  size: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(size, items.length) }, async () => {
      while (next < items.length) await work(items[next++] as T);
    }),
  );
}

/** Remove ids from an instance's link set; an instance that is gone has nothing to remove. */
async function unlinkQuietly(key: { pk: string; sk: string }, attribute: string, ids: readonly string[]) {
  if (ids.length === 0) return;
  try {
    await writeItem({ kind: 'link', key, attribute, remove: ids });
  } catch (error) {
    if (!(error instanceof DataError && error.code === 'not-found')) throw error;
  }
}

/**
 * Deletes up to `limit` association items of a relation and removes their ids from both
 * instances' link sets (links first: a step that fails leaves the items, so the next one finds
 * them again). Returns whether more remain. Idempotent; the relation item itself may be gone.
 */
export async function purgeAssociations(
  workspaceId: string,
  relation: Pick<StoredRelation, 'id' | 'a' | 'b'>,
  limit: number,
): Promise<boolean> {
  const found = await queryPartition(associationPartition(workspaceId, relation.id), { limit: limit + 1 });
  const batch = found.slice(0, limit);
  if (batch.length === 0) return false;
  const partners = { a: new Map<string, string[]>(), b: new Map<string, string[]>() };
  for (const association of batch) {
    const a = String(association.a_id);
    const b = String(association.b_id);
    partners.a.set(a, [...(partners.a.get(a) ?? []), b]);
    partners.b.set(b, [...(partners.b.get(b) ?? []), a]);
  }
  const updates = sides.flatMap((side) =>
    [...partners[side].entries()].map(([id, ids]) => ({ side, id, ids })),
  );
  await inBatches(updates, purgeConcurrency, ({ side, id, ids }) =>
    unlinkQuietly(
      keys.instance(workspaceId, relation[side].definition_id, id),
      linkAttribute(relation.id, side),
      ids,
    ),
  );
  await discardRecords(
    batch.map((association) =>
      keys.association(workspaceId, relation.id, String(association.a_id), String(association.b_id)),
    ),
  );
  return found.length > limit;
}

export function purgeEvent(workspaceId: string, relation: StoredRelation): DomainEvent {
  return systemEvent(workspaceId, 'custom_object_relation.association_purge', resource(relation.id), {
    id: relation.id,
    a: { definition_id: relation.a.definition_id },
    b: { definition_id: relation.b.definition_id },
  });
}

/**
 * The purge of a deleted relation's associations as an outbox consumer (for the `records`
 * group, beside device-history.consumer.ts): each custom_object_relation.association_purge event
 * removes up to `purgeStep` associations and, when more remain, writes the next such event.
 */
export const relationAssociationPurger: EventConsumer = {
  name: 'relation-associations',
  async handleBatch(events) {
    for (const event of events) {
      if (event.type !== 'custom_object_relation.association_purge') continue;
      const relation = event.data.object as Pick<StoredRelation, 'id' | 'a' | 'b'>;
      if (await purgeAssociations(event.workspace_id, relation, purgeStep)) {
        await transactWrite([outboxWrite(purgeEvent(event.workspace_id, relation as StoredRelation))]);
      }
    }
  },
};

/**
 * The relations of a deleted definition go with it (custom-object-purge.consumer.ts): each is
 * deleted with the model revision and a purge event in one transaction, then its first
 * `syncPurgeLimit` associations are removed here and the rest by `relationAssociationPurger`.
 * No custom_object_relation.deleted events: the definition's deletion is the event.
 */
export async function removeRelationsOf(workspaceId: string, definitionId: string): Promise<void> {
  const involved = (await relationStore.of(workspaceId).list()).filter(
    (relation) => relation.a.definition_id === definitionId || relation.b.definition_id === definitionId,
  );
  for (const relation of involved) {
    await transactWrite([
      { kind: 'discard', key: relationStore.of(workspaceId).key(relation.id) },
      revisionWrite(workspaceId),
      outboxWrite(purgeEvent(workspaceId, relation)),
    ]);
    await purgeAssociations(workspaceId, relation, syncPurgeLimit);
  }
}

/**
 * After an instance was deleted: its association items go, and the instances it was linked to
 * forget its id. Best effort, in batches; readers skip ids of instances that are gone anyway.
 * `record` is the item as read before the delete (its link attributes name the partners).
 */
export async function unlinkInstance(
  workspaceId: string,
  definition: Pick<CustomObjectDefinition, 'id'>,
  record: StoredRecord,
): Promise<void> {
  const instanceId = String(record.id);
  const relations = new Map(
    (await relationStore.of(workspaceId).list()).map((relation) => [relation.id, relation]),
  );
  const associationKeys: Array<{ pk: string; sk: string }> = [];
  const updates: Array<{ key: { pk: string; sk: string }; attribute: string; ids: string[] }> = [];
  for (const name of Object.keys(record)) {
    const match = /^L:(.+):([ab])$/.exec(name);
    if (!match) continue;
    const relation = relations.get(match[1] as string);
    const own = match[2] as Side;
    if (!relation || relation[own].definition_id !== definition.id) continue;
    const theirs = otherSide(own);
    for (const partner of linkedIds(record, relation.id, own)) {
      const [aId, bId] = own === 'a' ? [instanceId, partner] : [partner, instanceId];
      associationKeys.push(keys.association(workspaceId, relation.id, aId, bId));
      updates.push({
        key: keys.instance(workspaceId, relation[theirs].definition_id, partner),
        attribute: linkAttribute(relation.id, theirs),
        ids: [instanceId],
      });
    }
  }
  await inBatches(updates, purgeConcurrency, ({ key, attribute, ids }) => unlinkQuietly(key, attribute, ids));
  await discardRecords(associationKeys);
}
