/**
 * A case as a plan knows it: every field but those the service moves with time alone. A case
 * written since the run read it is a conflict for its apply (API-DECISIONS.md), but the
 * service-level detector moving its `sla_status` as a due date comes near or passes is not a
 * write of the case's content: an apply goes on over it (apply-job.ts), where the changed version
 * alone would end it in CONFLICT. Plans made before fingerprints existed compare versions only.
 */
import { createHash } from 'node:crypto';
import type { Case } from '../cases/case.schema.ts';

/** Fields the service changes as time passes, with the version and time of that change. */
const movedByTime = new Set(['sla_status', 'lock_version', 'updated_at']);

/** A short digest (16 characters): a plan keeps one per case it read, so plans stay small. */
export function planningFingerprint(record: Case): string {
  const content = Object.keys(record)
    .filter((key) => !movedByTime.has(key))
    .sort()
    .map((key) => [key, record[key as keyof Case]]);
  return createHash('sha256').update(JSON.stringify(content)).digest('base64url').slice(0, 16);
}
