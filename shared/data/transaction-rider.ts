/**
 * A rider: writes that must commit with the change a request makes, without the service that
 * makes it knowing (offline sync's push, domain/sync/push.service.ts: "mutation 17 of this
 * installation was applied, and this was its result" commits in the same transaction as the
 * change, so a mutation is applied at most once whatever the retries, crashes or lost answers).
 *
 * Set for an async scope with `withRider`; the first transaction of that scope that carries an
 * outbox event (the change) takes the rider's writes, and the rider is then spent. A scope whose
 * operation wrote nothing leaves it unspent, and the caller records the outcome itself.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { DomainEvent } from '../events/domain-event.ts';
import type { TableWrite } from './table-write.ts';

export interface Rider {
  /** The writes to add to the transaction of the change whose events are given. */
  writes(events: readonly DomainEvent[]): TableWrite[];
  /** Set once a transaction carrying the rider committed. */
  spent: boolean;
}

const riders = new AsyncLocalStorage<Rider>();

export function withRider<T>(rider: Rider, operation: () => Promise<T>): Promise<T> {
  return riders.run(rider, operation);
}

/** The rider of the current scope that this transaction should carry, if any. */
export function riderFor(writes: readonly TableWrite[]): { rider: Rider; writes: TableWrite[] } | undefined {
  const rider = riders.getStore();
  if (!rider || rider.spent) return undefined;
  const events = writes.flatMap((write) =>
    write.kind === 'put' && write.entity === 'event' ? [write.record.event as DomainEvent] : [],
  );
  if (events.length === 0) return undefined;
  return { rider, writes: rider.writes(events) };
}
