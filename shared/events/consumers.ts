/**
 * The consumers of the domain-event stream. Adding one (SSE fan-out, webhook dispatch) is one
 * more entry here. Each must be idempotent: a failed batch is redelivered from the first
 * failed record, so consumers that already succeeded see those events again.
 */
import { recordAuditEntry } from '../domain/audit-logs/audit-log.service.ts';
import { webhookDispatcher } from '../webhooks/dispatch.ts';
import type { DomainEvent } from './domain-event.ts';

export interface EventConsumer {
  name: string;
  /** Called before each stream batch: per-batch caches start over here. */
  beginBatch?(): void;
  handle(event: DomainEvent): Promise<void>;
}

export const consumers: readonly EventConsumer[] = [
  { name: 'audit-log', handle: recordAuditEntry },
  webhookDispatcher(),
];
