/**
 * Case rules: creation, merge-patch edits (address and location merge line by line, as RFC 7386
 * says), deletion, and the indexed list (case-list.ts). A reference must name a record of the
 * workspace (area_id an area, assignee_id a user who is not deactivated), checked for the fields
 * sent, so a case keeps naming an area deleted or a user deactivated later; the scheduled window is checked
 * on the resulting case: both ends or neither, start before end. Field workers see only their
 * own cases (case-visibility.ts) and change only the status of those (own-work.ts). Every change emits case.created / case.updated / case.deleted
 * with the case as data.object. Every write judges the case's service level (case-service-level.ts):
 * sla_status follows from due_by, status and scheduled_end at the time of the write; what time
 * alone changes later, the detector writes (sla-detector.ts).
 */
import type { Actor } from '../../auth/actor.ts';
import { getPrincipal } from '../../data/directory.store.ts';
import { outboxWrite } from '../../data/outbox.ts';
import { domainEvent, previousAttributes } from '../../events/domain-event.ts';
import { formatIsoDuration, parseIsoDuration } from '../../schema/duration.ts';
import type { FieldError } from '../../schema/field-error.ts';
import { defaultPageSize, pageOf } from '../../schema/list.ts';
import { areaStore } from '../areas/area.store.ts';
import {
  assertOwner,
  assertOwnWorkFields,
  assertOwnWorkStatus,
  caseOwnWork,
  writesOwnWorkOnly,
} from '../own-work.ts';
import { newRecordId } from '../record-id.ts';
import { skillStore } from '../skills/skill.store.ts';
import { deleteExisting, mergePatch, updateVersioned } from '../versioned-write.ts';
import {
  type Case,
  type CaseListQueryInput,
  type CreateCase,
  defaultCaseDuration,
  type UpdateCase,
} from './case.schema.ts';
import { caseStore } from './case.store.ts';
import { locksAssignee, locksTime } from './case-enums.ts';
import { CaseError } from './case-error.ts';
import { caseListPlan } from './case-list.ts';
import { withPlanningDefaults } from './case-planning.ts';
import { withServiceLevel } from './case-service-level.ts';
import { assigneeScopeOf, canSeeCase } from './case-visibility.ts';

const resource = (id: string) => ({ type: 'case', id });

/**
 * When a UUIDv7 was made (its first 48 bits, in milliseconds). A case's created_at is the instant
 * of its id, so creation order and id order agree and ties of every sort fall to the id.
 */
export function instantOfId(id: string): string {
  return new Date(Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toISOString();
}

/** A page through the list indexes; default order created_at descending (newest first). */
export async function listCases(ctx: Actor, query: CaseListQueryInput) {
  const plan = caseListPlan(query, assigneeScopeOf(ctx.principal));
  if (!plan) return { items: [], page: pageOf(0, query) };
  const { items, total } = await caseStore.of(ctx).page({
    ...plan,
    page: query.page ?? 0,
    size: query.size ?? defaultPageSize,
  });
  return { items: items.map(withPlanningDefaults), page: pageOf(total, query) };
}

/** The case if it exists in the workspace and the caller may see it. */
async function visibleCase(ctx: Actor, id: string): Promise<Case | undefined> {
  const found = await caseStore.of(ctx).get(id.toLowerCase());
  return found && canSeeCase(ctx.principal, found) ? withPlanningDefaults(found) : undefined;
}

/**
 * The case a field worker writes: someone else's is 403 not_owner rather than the 404 a read
 * answers, since the write names a case the caller claims to work on and deserves the reason.
 */
async function ownCase(ctx: Actor, id: string): Promise<Case | undefined> {
  const found = await caseStore.of(ctx).get(id);
  if (found) assertOwner(found.assignee_id === ctx.principal.id.toLowerCase(), caseOwnWork);
  return found && withPlanningDefaults(found);
}

export async function getCase(ctx: Actor, id: string): Promise<Case> {
  const found = await visibleCase(ctx, id);
  if (!found) throw new CaseError('not-found');
  return found;
}

/** Field errors of references that name nothing of this workspace. */
async function referenceErrors(
  workspaceId: string,
  refs: {
    area_id?: string | null | undefined;
    assignee_id?: string | null | undefined;
    required_skill_ids?: readonly string[] | null | undefined;
  },
): Promise<FieldError[]> {
  const skillIds = refs.required_skill_ids ?? [];
  const [area, assignee, skills] = await Promise.all([
    refs.area_id ? areaStore.of(workspaceId).get(refs.area_id) : undefined,
    refs.assignee_id ? getPrincipal(workspaceId, refs.assignee_id) : undefined,
    skillIds.length > 0 ? skillStore.of(workspaceId).getMany(skillIds) : [],
  ]);
  const errors: FieldError[] = skillIds.flatMap((_, index) =>
    skills[index] === undefined
      ? [
          {
            type: 'field-invalid' as const,
            pointer: `#/required_skill_ids/${index}`,
            detail: 'no skill definition with this id exists in the workspace',
          },
        ]
      : [],
  );
  if (refs.area_id && !area) {
    errors.push({
      type: 'field-invalid',
      pointer: '#/area_id',
      detail: 'no area with this id exists in the workspace',
    });
  }
  if (refs.assignee_id && assignee?.kind !== 'user') {
    errors.push({
      type: 'field-invalid',
      pointer: '#/assignee_id',
      detail: 'no user with this id exists in the workspace',
    });
  } else if (refs.assignee_id && assignee?.status === 'INACTIVE') {
    // As for a tour's driver: work is not handed to someone who left.
    errors.push({ type: 'field-invalid', pointer: '#/assignee_id', detail: 'the user is deactivated' });
  }
  return errors;
}

/** The scheduled window of a case as it would be stored: both ends or neither, start before end. */
export function windowErrors(record: Pick<Case, 'scheduled_start' | 'scheduled_end'>): FieldError[] {
  const { scheduled_start: start, scheduled_end: end } = record;
  if (start === undefined && end === undefined) return [];
  if (end === undefined) {
    return [
      {
        type: 'field-required',
        pointer: '#/scheduled_end',
        detail: 'is required while scheduled_start is set (clear both with null)',
      },
    ];
  }
  if (start === undefined) {
    return [
      {
        type: 'field-required',
        pointer: '#/scheduled_start',
        detail: 'is required while scheduled_end is set (clear both with null)',
      },
    ];
  }
  return start < end
    ? []
    : [{ type: 'field-invalid', pointer: '#/scheduled_end', detail: 'must be after scheduled_start' }];
}

/**
 * A lock keeps something the case has: ASSIGNEE its assignee_id, TIME its scheduled_start. The
 * error points at the lock when it was sent, else at what the write took away from under it.
 */
export function lockErrors(
  record: Pick<Case, 'schedule_lock' | 'assignee_id' | 'scheduled_start'>,
  lockSent: boolean,
): FieldError[] {
  const lock = record.schedule_lock;
  const errors: FieldError[] = [];
  if (locksAssignee(lock) && !record.assignee_id) {
    errors.push({
      type: 'field-invalid',
      pointer: lockSent ? '#/schedule_lock' : '#/assignee_id',
      detail: lockSent
        ? `${lock} keeps the assignee: the case needs an assignee_id`
        : `the case's schedule_lock ${lock} keeps its assignee: unlock it first (schedule_lock NONE)`,
    });
  }
  if (locksTime(lock) && !record.scheduled_start) {
    errors.push({
      type: 'field-invalid',
      pointer: lockSent ? '#/schedule_lock' : '#/scheduled_start',
      detail: lockSent
        ? `${lock} keeps the start: the case needs a scheduled_start`
        : `the case's schedule_lock ${lock} keeps its start: unlock it first (schedule_lock NONE)`,
    });
  }
  return errors;
}

/** An object without its absent lines, or undefined when none is left. */
function compact<T extends object>(value: T | undefined): T | undefined {
  if (!value) return undefined;
  const kept = Object.fromEntries(
    Object.entries(value).filter(([, line]) => line !== undefined && line !== null),
  );
  return Object.keys(kept).length > 0 ? (kept as T) : undefined;
}

/** RFC 7386 on a nested object: null removes it, an object merges line by line (null removes a line). */
function mergeNested<T extends object>(
  current: T | undefined,
  patch: Record<string, unknown> | null | undefined,
): T | undefined {
  if (patch === undefined) return current;
  if (patch === null) return undefined;
  return compact({ ...current, ...patch } as T);
}

/** A location must hold both coordinates. */
function locationErrors(location: Partial<Case['location'] & object> | undefined): FieldError[] {
  if (!location) return [];
  return (['latitude', 'longitude'] as const)
    .filter((coordinate) => location[coordinate] === undefined)
    .map((coordinate) => ({
      type: 'field-required' as const,
      pointer: `#/location/${coordinate}`,
      detail: 'a location needs both coordinates',
    }));
}

/** A duration in its shortest ISO 8601 form (`PT90M` → `PT1H30M`); the default when none is given. */
function shortestDuration(duration: string | undefined): string {
  const parsed = parseIsoDuration(duration ?? defaultCaseDuration);
  return 'seconds' in parsed ? formatIsoDuration(parsed.seconds) : defaultCaseDuration;
}

/** A list, or undefined when it is null or empty ([] clears like null: the field is omitted). */
function nonEmpty<T>(list: readonly T[] | null | undefined): T[] | undefined {
  return list && list.length > 0 ? [...list] : undefined;
}

function withOptional(record: Case, field: keyof Case, value: unknown): void {
  if (value === undefined || value === null) delete (record as Record<string, unknown>)[field];
  else (record as Record<string, unknown>)[field] = value;
}

export async function createCase(ctx: Actor, input: CreateCase): Promise<Case> {
  const id = newRecordId();
  const now = instantOfId(id);
  let record: Case = {
    id,
    title: input.title,
    status: input.status,
    priority: input.priority,
    lock_version: 0,
    created_at: now,
    updated_at: now,
  };
  withOptional(record, 'description', input.description);
  withOptional(record, 'external_id', input.external_id);
  withOptional(record, 'area_id', input.area_id);
  withOptional(record, 'assignee_id', input.assignee_id);
  withOptional(record, 'scheduled_start', input.scheduled_start);
  withOptional(record, 'scheduled_end', input.scheduled_end);
  withOptional(record, 'address', compact(input.address));
  withOptional(record, 'location', input.location);
  record.duration = shortestDuration(input.duration);
  record.schedule_lock = input.schedule_lock ?? 'NONE';
  withOptional(record, 'required_skill_ids', nonEmpty(input.required_skill_ids));
  withOptional(record, 'time_windows', nonEmpty(input.time_windows));
  withOptional(record, 'due_by', input.due_by);
  record = withServiceLevel(record, Date.parse(now));
  const errors = [
    ...windowErrors(record),
    ...lockErrors(record, true),
    ...(await referenceErrors(ctx.workspaceId, input)),
  ];
  if (errors.length > 0) throw new CaseError('invalid', { fields: errors });
  await caseStore.of(ctx).create(record, domainEvent(ctx, 'case.created', resource(id), record));
  return record;
}

export async function updateCase(ctx: Actor, id: string, patch: UpdateCase): Promise<Case> {
  // A field worker (cases:update:own alone) reports on its own cases only (own-work.ts): what it
  // may send is known before anything is read.
  const ownOnly = writesOwnWorkOnly(ctx.principal, caseOwnWork);
  if (ownOnly) assertOwnWorkFields(patch, caseOwnWork);
  // References depend only on what is sent: checked once, before the versioned write.
  const references = await referenceErrors(ctx.workspaceId, patch);
  const caseId = id.toLowerCase();
  const { after } = await updateVersioned<Case>({
    key: `case:${ctx.workspaceId}:${caseId}`,
    load: ownOnly ? () => ownCase(ctx, caseId) : () => visibleCase(ctx, caseId),
    expectedVersion: patch.lock_version,
    apply: (current) => {
      if (ownOnly) assertOwnWorkStatus(patch.status, current.status, caseOwnWork);
      const { address, location, duration, required_skill_ids, time_windows, sla_status, ...fields } = patch;
      const next = mergePatch(current, fields);
      if (duration !== undefined) next.duration = shortestDuration(duration);
      if (required_skill_ids !== undefined) {
        withOptional(next, 'required_skill_ids', nonEmpty(required_skill_ids));
      }
      if (time_windows !== undefined) withOptional(next, 'time_windows', nonEmpty(time_windows));
      withOptional(next, 'address', mergeNested(current.address, address));
      const merged = mergeNested(current.location, location);
      withOptional(next, 'location', merged);
      const errors = [
        ...references,
        ...locationErrors(merged),
        ...windowErrors(next),
        ...lockErrors(next, patch.schedule_lock !== undefined),
      ];
      if (errors.length > 0) throw new CaseError('invalid', { fields: errors });
      return withServiceLevel(next, Date.now(), current);
    },
    save: (next, current) => {
      const previous = previousAttributes(current, next);
      const updated = domainEvent(ctx, 'case.updated', resource(caseId), next, previous);
      // The stream's CASE_EXTERNAL_ID_UPDATED:V1 is an event of its own (its own id to replay
      // from), written with case.updated in the same transaction.
      const externalIdChanged = Object.hasOwn(previous, 'external_id')
        ? [
            outboxWrite(
              domainEvent(ctx, 'case.external_id_updated', resource(caseId), next, {
                external_id: previous.external_id,
              }),
            ),
          ]
        : [];
      return caseStore.of(ctx).replace(next, current, updated, externalIdChanged);
    },
  });
  return after;
}

export async function deleteCase(ctx: Actor, id: string): Promise<void> {
  const caseId = id.toLowerCase();
  await deleteExisting<Case>({
    load: () => visibleCase(ctx, caseId),
    remove: (current) =>
      caseStore.of(ctx).remove(current, domainEvent(ctx, 'case.deleted', resource(caseId), current)),
  });
}
