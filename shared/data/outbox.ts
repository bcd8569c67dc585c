/**
 * The transactional outbox: a domain event becomes one more write of the transaction that
 * changes the resource, so an event exists exactly when its change committed. Event items
 * expire after a week; by then every consumer has long seen them on the stream.
 */
import type { DomainEvent } from '../events/domain-event.ts';
import { keys } from './keys.ts';
import type { TableWrite } from './table.ts';

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
