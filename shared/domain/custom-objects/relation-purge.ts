/**
 * Removing associations in bulk: those of a deleted relation (the first ones at once, the rest in
 * steps driven by purge events), the relations of a deleted definition, and the pairs of a deleted
 * instance. What is stored where: association.store.ts (the pairs), instance.store.ts (the link
 * sets), relation.store.ts.
 */
import { appendEvent, outboxWrite } from '../../data/outbox.ts';
import type { EventConsumer } from '../../events/consumers.ts';
import { type DomainEvent, systemEvent } from '../../events/domain-event.ts';
import { type AssociatedPair, associationStore } from './association.store.ts';
import type { CustomObjectDefinition } from './definition.schema.ts';
import { type InstanceItem, instanceStore, linkedIds } from './instance.store.ts';
import { revisionWrite } from './model-revision.store.ts';
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

/** Ids to remove from one instance's link set of one relation side. */
interface Unlink {
  definitionId: string;
  id: string;
  relationId: string;
  side: Side;
  ids: string[];
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
  const associations = associationStore.of(workspaceId);
  const found = await associations.ofRelation(relation.id, limit + 1);
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
  const instances = instanceStore.of(workspaceId);
  await inBatches(updates, purgeConcurrency, ({ side, id, ids }) =>
    instances.unlink(relation[side].definition_id, id, relation.id, side, ids),
  );
  await associations.discard(
    batch.map((association) => ({
      relationId: relation.id,
      aId: String(association.a_id),
      bId: String(association.b_id),
    })),
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
        await appendEvent(purgeEvent(event.workspace_id, relation as StoredRelation));
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
    await relationStore
      .of(workspaceId)
      .discard(relation.id, [revisionWrite(workspaceId), outboxWrite(purgeEvent(workspaceId, relation))]);
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
  record: InstanceItem,
): Promise<void> {
  const instanceId = String(record.id);
  const relations = new Map(
    (await relationStore.of(workspaceId).list()).map((relation) => [relation.id, relation]),
  );
  const pairs: AssociatedPair[] = [];
  const updates: Unlink[] = [];
  for (const name of Object.keys(record)) {
    const match = /^L:(.+):([ab])$/.exec(name);
    if (!match) continue;
    const relation = relations.get(match[1] as string);
    const own = match[2] as Side;
    if (!relation || relation[own].definition_id !== definition.id) continue;
    const theirs = otherSide(own);
    for (const partner of linkedIds(record, relation.id, own)) {
      const [aId, bId] = own === 'a' ? [instanceId, partner] : [partner, instanceId];
      pairs.push({ relationId: relation.id, aId, bId });
      updates.push({
        definitionId: relation[theirs].definition_id,
        id: partner,
        relationId: relation.id,
        side: theirs,
        ids: [instanceId],
      });
    }
  }
  const instances = instanceStore.of(workspaceId);
  await inBatches(updates, purgeConcurrency, ({ definitionId, id, relationId, side, ids }) =>
    instances.unlink(definitionId, id, relationId, side, ids),
  );
  await associationStore.of(workspaceId).discard(pairs);
}
