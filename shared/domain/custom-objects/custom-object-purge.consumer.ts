/**
 * Removing a deleted definition's instances and relations, in bounded steps after the DELETE
 * answered (a type may hold 100,000 records): a consumer of the outbox's `records` group, as the
 * device history purge is. On custom_object_definition.deleted it first deletes the relations
 * that involve the definition (with their associations, relation.service.ts), then up to
 * `instancesPerStep` instances; when some remain it writes a custom_object_definition.purge
 * event, whose arrival runs the next step. The list counters of the definition go last. Each step
 * is short and durable: a failed step is retried with its batch, a crash between steps loses
 * nothing. Instances removed this way emit no events of their own: the definition's deletion
 * is the event.
 */

import { appendEvent } from '../../data/outbox.ts';
import type { EventConsumer } from '../../events/consumers.ts';
import { type DomainEvent, systemEvent } from '../../events/domain-event.ts';
import { instanceStore } from './instance.store.ts';
import { removeRelationsOf } from './relation-purge.ts';

/** Instances deleted per step: 80 BatchWriteItem calls. */
export const instancesPerStep = Number(process.env.FSM_CUSTOM_OBJECT_PURGE_STEP ?? 2000);

async function purgeStep(event: DomainEvent): Promise<void> {
  const workspaceId = event.workspace_id;
  const definitionId = event.resource.id;
  if (event.type === 'custom_object_definition.deleted') await removeRelationsOf(workspaceId, definitionId);
  const instances = instanceStore.of(workspaceId);
  if (await instances.purge(definitionId, instancesPerStep)) {
    const next = systemEvent(
      workspaceId,
      'custom_object_definition.purge',
      { type: 'custom_object_definition', id: definitionId },
      { id: definitionId },
    );
    await appendEvent(next);
    return;
  }
  // Every instance is gone: so are the definition's counters.
  await instances.purgeCounters(definitionId);
}

export const customObjectPurger: EventConsumer = {
  name: 'custom-object-purge',
  async handleBatch(events) {
    for (const event of events) {
      if (
        event.type === 'custom_object_definition.deleted' ||
        event.type === 'custom_object_definition.purge'
      ) {
        await purgeStep(event);
      }
    }
  },
};
