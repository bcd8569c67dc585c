/**
 * Deleting a deleted device's telemetry history, in bounded steps after the delete answered
 * (a tracker reporting every 10 s leaves about 260,000 points in 30 days): a consumer of the
 * outbox's `records` group. On device.deleted it deletes up to `pointsPerStep` points; when some
 * remain it writes a device.history_purge event to the outbox, whose arrival runs the next step.
 * Each step is short (no Lambda timeout, no stall of the audit log behind it) and durable: a
 * step that fails is retried with its batch, and a crash between steps loses nothing, since the
 * next step is an event in the table. The points' TTL would remove them anyway; this makes the
 * delete mean what it says within minutes.
 */
import { appendEvent } from '../../data/outbox.ts';
import type { EventConsumer } from '../../events/consumers.ts';
import { type DomainEvent, systemEvent } from '../../events/domain-event.ts';
import { deviceHistoryStore } from './device-state.store.ts';

/** Points deleted per step: 200 BatchWriteItem calls, a few seconds on DynamoDB. */
export const pointsPerStep = Number(process.env.FSM_DEVICE_PURGE_STEP ?? 5000);

async function purgeStep(event: DomainEvent): Promise<void> {
  const deviceId = event.resource.id;
  const more = await deviceHistoryStore.of(event.workspace_id).purge(deviceId, pointsPerStep);
  if (more) {
    const next = systemEvent(
      event.workspace_id,
      'device.history_purge',
      { type: 'device', id: deviceId },
      {
        id: deviceId,
      },
    );
    await appendEvent(next);
  }
}

export const deviceHistoryPurger: EventConsumer = {
  name: 'device-history',
  async handleBatch(events) {
    for (const event of events) {
      if (event.type === 'device.deleted' || event.type === 'device.history_purge') await purgeStep(event);
    }
  },
};
