/**
 * Shift rules: creation (end_location defaults to start_location, breaks to []), merge-patch
 * edits (vehicle_id and breaks clearable with null; locations merge coordinate by coordinate),
 * deletion, and the list. Every change emits shift.created / shift.updated / shift.deleted
 * (webhooks and the audit log) with the shift as data.object.
 *
 * - The times and breaks follow shift-rules.ts, checked on the shift as it would be stored, so a
 *   patch that moves the hours away from the breaks is refused at the breaks' pointers.
 * - `user_id` names a user of the workspace (not an API client) holding the technician or driver
 *   role and not deactivated; `vehicle_id` a vehicle of the workspace in service; 422 at the
 *   pointer otherwise. Checked for the fields sent (SPEC.md rule 5): a shift keeps naming a user
 *   deactivated, or a vehicle retired, later.
 * - A user works one shift at a time: a shift overlapping another of the same user is 422 at
 *   `#/start`, `data.shift_id` naming the other. Checked when user_id, start or end is written,
 *   with one page of the user's facet (shift.list.ts); two writes racing for the same hours in
 *   different containers can both pass.
 * - Tours keep naming a deleted shift in shift_id, as they keep a deleted vehicle.
 *
 * The list (shift.list.ts; shared/data/README.md "Lists", SHIFT, has the costs): by start
 * (default), created_at or updated_at; `user_ids` walks those users' facet partitions merged;
 * `from`/`to` are a key range of the start order (24 hours before `from` up to `to`) with the end
 * checked on the entries, and counted.
 */
import type { z } from 'zod';
import type { Actor } from '../../auth/actor.ts';
import { getPrincipal } from '../../data/directory.store.ts';
import type { ListOrder } from '../../data/list-read.ts';
import { domainEvent, previousAttributes } from '../../events/domain-event.ts';
import { formatIsoDuration, parseIsoDuration } from '../../schema/duration.ts';
import type { FieldError } from '../../schema/field-error.ts';
import { defaultPageSize, pageOf } from '../../schema/list.ts';
import { newRecordId } from '../record-id.ts';
import { findVehicle } from '../vehicles/vehicle.service.ts';
import { deleteExisting, mergePatch, updateVersioned } from '../versioned-write.ts';
import { overlapFilter, userFacet } from './shift.list.ts';
import type {
  CreateShift,
  Shift,
  ShiftBreak,
  ShiftListQuery,
  ShiftLocation,
  UpdateShift,
} from './shift.schema.ts';
import { shiftStore } from './shift.store.ts';
import { ShiftError } from './shift-error.ts';
import { shiftErrors } from './shift-rules.ts';

const resource = (id: string) => ({ type: 'shift', id });

/** Roles whose holders work shifts. */
export const shiftRoles: ReadonlySet<string> = new Set(['technician', 'driver']);

const defaultOrder: ListOrder[] = [{ field: 'start', direction: 'asc' }];

export async function listShifts(ctx: Actor, query: z.output<typeof ShiftListQuery>) {
  const users = [...new Set((query.user_ids ?? []).map((id) => id.toLowerCase()))];
  const timed = query.from !== undefined || query.to !== undefined;
  const { items, total } = await shiftStore.of(ctx).page({
    order: query.sort?.length ? query.sort : defaultOrder,
    page: query.page ?? 0,
    size: query.size ?? defaultPageSize,
    ...(users.length > 0 ? { facet: { name: userFacet, value: users } } : {}),
    ...(timed ? overlapFilter(query.from, query.to) : {}),
  });
  return { items, page: pageOf(total, query) };
}

export async function getShift(ctx: Actor, id: string): Promise<Shift> {
  const shift = await shiftStore.of(ctx).get(id.toLowerCase());
  if (!shift) throw new ShiftError('not-found');
  return shift;
}

export async function createShift(ctx: Actor, input: CreateShift): Promise<Shift> {
  const id = newRecordId();
  const now = new Date().toISOString();
  const shift: Shift = {
    id,
    user_id: input.user_id.toLowerCase(),
    ...(input.vehicle_id ? { vehicle_id: input.vehicle_id.toLowerCase() } : {}),
    start: input.start,
    end: input.end,
    start_location: place(input.start_location),
    end_location: place(input.end_location ?? input.start_location),
    breaks: storedBreaks(input.breaks ?? []),
    created_at: now,
    updated_at: now,
    lock_version: 0,
  };
  await assertValid(ctx, shift, input);
  await shiftStore.of(ctx).create(shift, domainEvent(ctx, 'shift.created', resource(id), shift));
  return shift;
}

export async function updateShift(ctx: Actor, id: string, patch: UpdateShift): Promise<Shift> {
  const shiftId = id.toLowerCase();
  // References depend only on what is sent: checked once, before the versioned write.
  const references = await referenceErrors(ctx.workspaceId, patch);
  const { after } = await updateVersioned<Shift>({
    key: `shift:${ctx.workspaceId}:${shiftId}`,
    load: () => shiftStore.of(ctx).get(shiftId),
    expectedVersion: patch.lock_version,
    apply: (current) => {
      const { start_location, end_location, breaks, user_id, vehicle_id, ...fields } = patch;
      const next = mergePatch(current, fields);
      if (user_id) next.user_id = user_id.toLowerCase();
      if (vehicle_id === null) delete next.vehicle_id;
      else if (vehicle_id) next.vehicle_id = vehicle_id.toLowerCase();
      if (start_location) next.start_location = place({ ...current.start_location, ...start_location });
      if (end_location) next.end_location = place({ ...current.end_location, ...end_location });
      if (breaks !== undefined) next.breaks = storedBreaks(breaks ?? []);
      const errors = [...references, ...shiftErrors(next)];
      if (errors.length > 0) throw new ShiftError('invalid', { fields: errors });
      return next;
    },
    save: async (next, current) => {
      const moved = patch.user_id !== undefined || patch.start !== undefined || patch.end !== undefined;
      if (moved) await assertNoOverlap(ctx, next);
      await shiftStore
        .of(ctx)
        .replace(
          next,
          current,
          domainEvent(ctx, 'shift.updated', resource(shiftId), next, previousAttributes(current, next)),
        );
    },
  });
  return after;
}

export async function deleteShift(ctx: Actor, id: string): Promise<void> {
  const shiftId = id.toLowerCase();
  await deleteExisting<Shift>({
    load: () => shiftStore.of(ctx).get(shiftId),
    remove: (current) =>
      shiftStore.of(ctx).remove(current, domainEvent(ctx, 'shift.deleted', resource(shiftId), current)),
  });
}

/** A place with its coordinates in a fixed order. */
function place(location: ShiftLocation): ShiftLocation {
  return { latitude: location.latitude, longitude: location.longitude };
}

/** Breaks as stored: keys in a fixed order, durations in their shortest form (`PT90M` → `PT1H30M`). */
function storedBreaks(breaks: readonly ShiftBreak[]): ShiftBreak[] {
  return breaks.map((pause) => {
    const parsed = parseIsoDuration(pause.duration);
    return {
      earliest_start: pause.earliest_start,
      latest_end: pause.latest_end,
      duration: 'seconds' in parsed ? formatIsoDuration(parsed.seconds) : pause.duration,
    };
  });
}

/** A new shift's rules, references and overlap, reported together where they can be. */
async function assertValid(ctx: Actor, shift: Shift, input: CreateShift): Promise<void> {
  const errors = [...shiftErrors(shift), ...(await referenceErrors(ctx.workspaceId, input))];
  if (errors.length > 0) throw new ShiftError('invalid', { fields: errors });
  await assertNoOverlap(ctx, shift);
}

/** Field errors of the user and vehicle a write names (only those sent). */
async function referenceErrors(
  workspaceId: string,
  refs: { user_id?: string | undefined; vehicle_id?: string | null | undefined },
): Promise<FieldError[]> {
  const [user, vehicle] = await Promise.all([
    refs.user_id ? getPrincipal(workspaceId, refs.user_id.toLowerCase()) : undefined,
    refs.vehicle_id ? findVehicle(workspaceId, refs.vehicle_id) : undefined,
  ]);
  const errors: FieldError[] = [];
  const invalid = (pointer: string, detail: string) =>
    errors.push({ type: 'field-invalid', pointer, detail });
  if (refs.user_id) {
    if (user?.kind !== 'user') invalid('#/user_id', 'no user with this id exists in the workspace');
    else if (user.status === 'INACTIVE') invalid('#/user_id', 'the user is deactivated');
    else if (!user.roles.some((role) => shiftRoles.has(role))) {
      invalid('#/user_id', 'the user holds neither the technician nor the driver role');
    }
  }
  if (refs.vehicle_id) {
    if (!vehicle) invalid('#/vehicle_id', 'no vehicle with this id exists in the workspace');
    else if (!vehicle.active) invalid('#/vehicle_id', 'the vehicle is out of service (is_active is false)');
  }
  return errors;
}

/** 422 at #/start when another shift of the same user overlaps this one (one page of the facet). */
async function assertNoOverlap(ctx: Actor, shift: Shift): Promise<void> {
  const filter = overlapFilter(shift.start, shift.end);
  const { items } = await shiftStore.of(ctx).page({
    facet: { name: userFacet, value: shift.user_id },
    range: filter.range,
    where: (entry) => entry.id !== shift.id && filter.where(entry),
    order: defaultOrder,
    page: 0,
    size: 1,
    skipTotal: true,
  });
  const other = items[0];
  if (other) {
    throw new ShiftError('invalid', {
      fields: [
        {
          type: 'field-invalid',
          pointer: '#/start',
          detail: `overlaps another shift of the user (${other.start} to ${other.end}); a user works one shift at a time`,
          data: { shift_id: other.id },
        },
      ],
    });
  }
}
