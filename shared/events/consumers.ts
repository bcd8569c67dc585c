/**
 * The contract of a domain-event consumer: what the stream processor (stream-processor.ts)
 * hands to every consumer of a group, and what it expects back. Which consumers run, and in
 * which group (consumer-groups.ts), is wired where they run: the stream-processor function
 * (functions/stream-processor/consumers.ts), which the local stack's pollers run too.
 *
 * Every consumer keeps these rules:
 * - it takes a whole stream batch of outbox events, in stream order, and handles them together:
 *   a consumer that makes one call per event falls behind a busy table (bench/webhooks.bench.ts
 *   measured 8–10 events/s that way);
 * - it is idempotent: when it (or any other consumer of its group) fails, the whole batch is
 *   handed over again, events it already handled included; webhook deliveries keep their ids;
 * - a failure is a rejected promise: the batch is then retried as Lambda's event-source mapping
 *   retries it (locally: the stream poller, with the same rules), and after the retries the
 *   batch is passed over and logged; nothing is skipped silently;
 * - it relies on no other consumer: the consumers of a group run side by side, and the groups
 *   read the stream independently.
 */
import type { DomainEvent } from './domain-event.ts';

export interface EventConsumer {
  /** Named in the log line of a failed batch. */
  name: string;
  handleBatch(events: readonly DomainEvent[]): Promise<void>;
}
