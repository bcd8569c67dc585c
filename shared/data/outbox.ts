/**
 * The transactional outbox: a domain event becomes one more write of the transaction that
 * changes the resource, so an event exists exactly when its change committed. Event items
 * expire after a week; by then every consumer has long seen them on the stream.
 */
import type { DomainEvent } from '../events/domain-event.ts';
import { keys } from './keys.ts';
import { getRecord, queryItems, storable, type TableWrite, transactWrite } from './table.ts';

export const outboxEntity = 'event';
const retentionSeconds = 7 * 24 * 3600;

export function outboxWrite(event: DomainEvent): TableWrite {
  return {
    kind: 'put',
    key: keys.event(event.workspace_id, event.id),
    entity: outboxEntity,
    record: { event },
    expiresAt: Math.floor(Date.parse(event.occurred_at) / 1000) + retentionSeconds,
  };
}

/** An event on its own, outside any change (the next step of a consumer's work): committed alone. */
export async function appendEvent(event: DomainEvent): Promise<void> {
  await transactWrite([outboxWrite(event)]);
}

/** Events kept for replay: the event stream replays at most this many after a client's last id. */
export const maxReplayedEvents = 10_000;

/**
 * The outbox is also the durable per-workspace event log the event stream replays from (a
 * week of events, ordered by their UUIDv7 ids). `known` is false when `afterId` names no
 * event of the workspace that is still kept (unknown, or older than a week); `events` are the
 * events after it, oldest first, at most maxReplayedEvents (then `complete` is false).
 */
export async function eventsAfter(
  workspaceId: string,
  afterId: string,
): Promise<{ known: boolean; events: DomainEvent[]; complete: boolean }> {
  const key = keys.event(workspaceId, afterId);
  if (!storable(key) || !(await getRecord(key))) return { known: false, events: [], complete: true };
  const events: DomainEvent[] = [];
  for await (const item of queryItems({
    partitionKey: { name: 'pk', value: key.pk },
    atLeast: afterId,
    pageSize: () => 1000,
  })) {
    if (item.sk === afterId) continue;
    if (events.length >= maxReplayedEvents) return { known: true, events, complete: false };
    events.push(item.event as DomainEvent);
  }
  return { known: true, events, complete: true };
}
