/**
 * Maintenance plan rules: creation with defaults (status ACTIVE, horizon P30D, template priority
 * NORMAL and duration PT1H), merge-patch edits (the template merges field by field), deletion, and
 * the indexed list. Every change emits maintenance_plan.created / .updated / .deleted (webhooks and
 * the audit log). Cases are not generated here, on the request path: the records consumer
 * (plan-generation.consumer.ts) does it right after the event, and the scheduled generator
 * (plan-generator.ts) keeps every plan's horizon filled as time moves. Deleting a plan leaves the
 * cases it generated as they are.
 */
import type { z } from 'zod';
import type { Actor } from '../../auth/actor.ts';
import { domainEvent, previousAttributes } from '../../events/domain-event.ts';
import { formatIsoDuration, parseIsoDuration } from '../../schema/duration.ts';
import type { FieldError } from '../../schema/field-error.ts';
import { defaultPageSize, pageOf } from '../../schema/list.ts';
import { areaStore } from '../areas/area.store.ts';
import { defaultCaseDuration } from '../cases/case.schema.ts';
import { newRecordId } from '../record-id.ts';
import { skillStore } from '../skills/skill.store.ts';
import { deleteExisting, mergePatch, updateVersioned } from '../versioned-write.ts';
import {
  type CaseTemplate,
  type CreateMaintenancePlan,
  defaultHorizon,
  type MaintenancePlan,
  type MaintenancePlanListQuery,
  type UpdateMaintenancePlan,
} from './maintenance-plan.schema.ts';
import { maintenancePlanStore, maintenanceWorkspaces } from './maintenance-plan.store.ts';
import { MaintenancePlanError } from './maintenance-plan-error.ts';
import { occurrencesBetween } from './occurrences.ts';

const resource = (id: string) => ({ type: 'maintenance_plan', id });

/** Occurrences one horizon may hold: an HOURLY rule over P366D would be 8,784 cases. */
export const maxOccurrencesPerHorizon = 1000;

/** A duration in its shortest form (`PT90M` → `PT1H30M`). */
function shortest(duration: string | undefined, fallback: string): string {
  const parsed = parseIsoDuration(duration ?? fallback);
  return 'seconds' in parsed ? formatIsoDuration(parsed.seconds) : fallback;
}

/** The plan with its fields in a fixed order, absent optional ones left out. */
export function toPlan(plan: MaintenancePlan): MaintenancePlan {
  const t = plan.case_template;
  return {
    id: plan.id,
    name: plan.name,
    status: plan.status,
    case_template: {
      title: t.title,
      ...(t.description !== undefined ? { description: t.description } : {}),
      priority: t.priority,
      duration: t.duration,
      ...(t.required_skill_ids?.length ? { required_skill_ids: t.required_skill_ids } : {}),
      ...(t.area_id !== undefined ? { area_id: t.area_id } : {}),
      ...(t.location !== undefined ? { location: t.location } : {}),
    },
    rrule: plan.rrule,
    dtstart: plan.dtstart,
    timezone: plan.timezone,
    horizon: plan.horizon,
    ...(plan.end !== undefined ? { end: plan.end } : {}),
    created_at: plan.created_at,
    updated_at: plan.updated_at,
    lock_version: plan.lock_version,
  };
}

/** Template references that name nothing of this workspace, at `#/case_template/…`. */
async function referenceErrors(
  workspaceId: string,
  refs: { area_id?: string | null | undefined; required_skill_ids?: readonly string[] | null | undefined },
): Promise<FieldError[]> {
  const skillIds = refs.required_skill_ids ?? [];
  const [area, skills] = await Promise.all([
    refs.area_id ? areaStore.of(workspaceId).get(refs.area_id) : undefined,
    skillIds.length > 0 ? skillStore.of(workspaceId).getMany(skillIds) : [],
  ]);
  const errors: FieldError[] = skillIds.flatMap((_, index) =>
    skills[index] === undefined
      ? [
          {
            type: 'field-invalid' as const,
            pointer: `#/case_template/required_skill_ids/${index}`,
            detail: 'no skill definition with this id exists in the workspace',
          },
        ]
      : [],
  );
  if (refs.area_id && !area) {
    errors.push({
      type: 'field-invalid',
      pointer: '#/case_template/area_id',
      detail: 'no area with this id exists in the workspace',
    });
  }
  return errors;
}

/** The recurrence must stay within the generation limits over one horizon from now. */
export function recurrenceErrors(plan: MaintenancePlan, now = Date.now()): FieldError[] {
  const parsed = parseIsoDuration(plan.horizon);
  const horizonMs = 'seconds' in parsed ? parsed.seconds * 1000 : 0;
  let count: number;
  try {
    count = occurrencesBetween(plan, now, now + horizonMs).length;
  } catch {
    // A rule that passed the parts' checks and still fails rrule's expansion is no rule we can keep.
    return [{ type: 'field-invalid', pointer: '#/rrule', detail: 'cannot be expanded into occurrences' }];
  }
  if (count <= maxOccurrencesPerHorizon) return [];
  return [
    {
      type: 'field-invalid',
      pointer: '#/rrule',
      detail: `yields ${count} occurrences within the horizon; at most ${maxOccurrencesPerHorizon} are generated`,
    },
  ];
}

export async function listMaintenancePlans(ctx: Actor, query: z.output<typeof MaintenancePlanListQuery>) {
  const { items, total } = await maintenancePlanStore.of(ctx).page({
    ...(query.status === undefined ? {} : { segments: [query.status] }),
    order: query.sort?.length ? query.sort : [{ field: 'name', direction: 'asc' }],
    page: query.page ?? 0,
    size: query.size ?? defaultPageSize,
  });
  return { items: items.map(toPlan), page: pageOf(total, query) };
}

export async function getMaintenancePlan(ctx: Actor, id: string): Promise<MaintenancePlan> {
  const plan = await maintenancePlanStore.of(ctx).get(id.toLowerCase());
  if (!plan) throw new MaintenancePlanError('not-found');
  return toPlan(plan);
}

export async function createMaintenancePlan(
  ctx: Actor,
  input: CreateMaintenancePlan,
): Promise<MaintenancePlan> {
  const id = newRecordId();
  const now = new Date().toISOString();
  const t = input.case_template;
  const template: CaseTemplate = {
    title: t.title,
    ...(t.description !== undefined ? { description: t.description } : {}),
    priority: t.priority,
    duration: shortest(t.duration, defaultCaseDuration),
    ...(t.required_skill_ids?.length ? { required_skill_ids: t.required_skill_ids } : {}),
    ...(t.area_id !== undefined ? { area_id: t.area_id } : {}),
    ...(t.location !== undefined ? { location: t.location } : {}),
  };
  const plan = toPlan({
    id,
    name: input.name,
    status: input.status,
    case_template: template,
    rrule: input.rrule,
    dtstart: input.dtstart,
    timezone: input.timezone,
    horizon: shortest(input.horizon, defaultHorizon),
    ...(input.end !== undefined ? { end: input.end } : {}),
    created_at: now,
    updated_at: now,
    lock_version: 0,
  });
  const errors = [...recurrenceErrors(plan), ...(await referenceErrors(ctx.workspaceId, t))];
  if (errors.length > 0) throw new MaintenancePlanError('invalid', { fields: errors });
  await maintenanceWorkspaces.register(ctx.workspaceId);
  await maintenancePlanStore
    .of(ctx)
    .create(plan, domainEvent(ctx, 'maintenance_plan.created', resource(id), plan));
  return plan;
}

/** RFC 7386 on the template: null removes a field, anything else replaces it. */
function mergeTemplate(current: CaseTemplate, patch: UpdateMaintenancePlan['case_template']): CaseTemplate {
  if (!patch) return current;
  const merged: Record<string, unknown> = { ...current };
  for (const [field, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (value === null) delete merged[field];
    else merged[field] = field === 'duration' ? shortest(String(value), defaultCaseDuration) : value;
  }
  return merged as CaseTemplate;
}

export async function updateMaintenancePlan(
  ctx: Actor,
  id: string,
  patch: UpdateMaintenancePlan,
): Promise<MaintenancePlan> {
  const planId = id.toLowerCase();
  const references = await referenceErrors(ctx.workspaceId, patch.case_template ?? {});
  const { after } = await updateVersioned<MaintenancePlan>({
    key: `maintenance-plan:${ctx.workspaceId}:${planId}`,
    load: () => maintenancePlanStore.of(ctx).get(planId),
    expectedVersion: patch.lock_version,
    apply: (current) => {
      const { case_template: template, horizon, ...fields } = patch;
      const next = mergePatch(current, fields);
      next.case_template = mergeTemplate(current.case_template, template);
      if (horizon !== undefined) next.horizon = shortest(horizon, defaultHorizon);
      const normalised = toPlan(next);
      const errors = [...references, ...recurrenceErrors(normalised)];
      if (errors.length > 0) throw new MaintenancePlanError('invalid', { fields: errors });
      return normalised;
    },
    save: (next, current) =>
      maintenancePlanStore
        .of(ctx)
        .replace(
          next,
          current,
          domainEvent(
            ctx,
            'maintenance_plan.updated',
            resource(planId),
            next,
            previousAttributes(toPlan(current), next),
          ),
        ),
  });
  return after;
}

export async function deleteMaintenancePlan(ctx: Actor, id: string): Promise<void> {
  const planId = id.toLowerCase();
  await deleteExisting<MaintenancePlan>({
    load: () => maintenancePlanStore.of(ctx).get(planId),
    remove: (current) =>
      maintenancePlanStore
        .of(ctx)
        .remove(current, domainEvent(ctx, 'maintenance_plan.deleted', resource(planId), toPlan(current))),
  });
}
