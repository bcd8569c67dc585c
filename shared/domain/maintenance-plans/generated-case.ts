/**
 * What a generated case is: NEW, unplanned, the plan's template fields, its plan and occurrence;
 * and the same case after an edit of the template (plan-generator.ts reconciles with it).
 */
import type { Case } from '../cases/case.schema.ts';
import { instantOfId } from '../cases/case.service.ts';
import { newRecordId } from '../record-id.ts';
import type { MaintenancePlan } from './maintenance-plan.schema.ts';

/** The fields a generated case takes from its plan's template. */
export function templateFields(plan: MaintenancePlan): Partial<Case> {
  const t = plan.case_template;
  return {
    title: t.title,
    ...(t.description !== undefined ? { description: t.description } : {}),
    priority: t.priority,
    duration: t.duration,
    ...(t.required_skill_ids?.length ? { required_skill_ids: [...t.required_skill_ids] } : {}),
    ...(t.area_id !== undefined ? { area_id: t.area_id } : {}),
    ...(t.location !== undefined ? { location: { ...t.location } } : {}),
  };
}

export const templateKeys = [
  'title',
  'description',
  'priority',
  'duration',
  'required_skill_ids',
  'area_id',
  'location',
] as const;

export function pickTemplate(record: Partial<Case>): Record<string, unknown> {
  return Object.fromEntries(
    templateKeys.flatMap((key) => (record[key] === undefined ? [] : [[key, record[key]]])),
  );
}

/** A new case of an occurrence: NEW, unplanned, carrying its plan and occurrence. */
export function generatedCase(plan: MaintenancePlan, occurrence: string): Case {
  const id = newRecordId();
  const now = instantOfId(id);
  return {
    id,
    status: 'NEW',
    ...templateFields(plan),
    schedule_lock: 'NONE',
    maintenance_plan_id: plan.id,
    occurrence,
    created_at: now,
    updated_at: now,
    lock_version: 0,
  } as Case;
}

/** A generated case with the plan's template fields instead of its own. */
export function withTemplate(current: Case, plan: MaintenancePlan): Case {
  const next = { ...current } as Record<string, unknown>;
  for (const key of templateKeys) delete next[key];
  return {
    ...(next as unknown as Case),
    ...templateFields(plan),
    updated_at: new Date().toISOString(),
    lock_version: current.lock_version + 1,
  };
}
