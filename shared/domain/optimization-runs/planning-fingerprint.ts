/**
 * What a plan depends on of a case: the fields a run reads to plan it and those its apply writes.
 * A case whose other fields changed since the run read it (its title, a comment count, the
 * sla_status the service-level detector moves as time passes) is still the case the plan was
 * made for: its apply goes on (apply-job.ts), where a changed version alone would end it in
 * CONFLICT. Plans made before fingerprints existed compare versions only.
 */
import { createHash } from 'node:crypto';
import type { Case } from '../cases/case.schema.ts';

/** A short digest (16 characters): a plan keeps one per case it read, so plans stay small. */
export function planningFingerprint(record: Case): string {
  const fields = JSON.stringify([
    record.status,
    record.assignee_id ?? null,
    record.scheduled_start ?? null,
    record.scheduled_end ?? null,
    record.schedule_lock ?? 'NONE',
    record.location ?? null,
    record.duration ?? null,
    record.time_windows ?? [],
    record.required_skill_ids ?? [],
    record.priority ?? null,
    record.due_by ?? null,
  ]);
  return createHash('sha256').update(fields).digest('base64url').slice(0, 16);
}
