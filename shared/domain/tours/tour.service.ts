/**
 * Tour rules: creation (status PLANNED unless given, stops [] unless given), merge-patch edits
 * (name, vehicle_id and driver_id clearable with null; stops replaced whole), deletion, and the
 * list. Every change emits tour.created / tour.updated / tour.deleted (the event stream's
 * TOUR_CREATED:V1 / TOUR_UPDATED:V1 / TOUR_DELETED:V1). References are checked in
 * tour-references.ts.
 *
 * Who sees which tours: everyone with tours:read, except callers whose roles are all technician
 * and/or driver, who see only the tours they drive (driver_id = their own id). Another tour is
 * answered like a missing one (404), as a tour of another workspace is. They write only the
 * status of the tours they drive (own-work.ts); another driver's tour is 403 not_owner there.
 *
 * The list (tour.list.ts `tourList`; shared/data/README.md "Lists" has the costs):
 * - status is the index segment: one status is one partition, none merges the four;
 * - driver_id and vehicle_id are facets: the partitions of that driver or vehicle, by date; a
 *   field worker's list is always their driver_id facet;
 * - date_from/date_to are a key range of the date order (or of the facet);
 * - a sort other than date over a facet or a date range is ordered in memory: it reads the
 *   facet's or the range's entries;
 * - driver_id and vehicle_id together walk the driver's partitions and check the vehicle on the
 *   index entries (ListSpec `listedValues`); the total is a count of the driver's entries walked.
 * - shift_id reads the shift's tours (a key range of their own: tour.store.ts `toursOfShift`),
 *   checks the other filters on them and orders them in memory: it costs the shift's tours.
 */
import type { z } from 'zod';
import type { Actor, Principal } from '../../auth/actor.ts';
import { DataError } from '../../data/data-error.ts';
import { comparatorOf, type ListOrder, type ListRequest } from '../../data/list-read.ts';
import type { StoredRecord, TableWrite } from '../../data/table.ts';
import { domainEvent, previousAttributes } from '../../events/domain-event.ts';
import { defaultPageSize, pageOf, paginate } from '../../schema/list.ts';
import {
  assertOwner,
  assertOwnWorkFields,
  assertOwnWorkStatus,
  tourOwnWork,
  writesOwnWorkOnly,
} from '../own-work.ts';
import { newRecordId } from '../record-id.ts';
import { deleteExisting, mergePatch, updateVersioned } from '../versioned-write.ts';
import { tourList } from './tour.list.ts';
import type { CreateTourSchema, Tour, TourListQuery, UpdateTourSchema } from './tour.schema.ts';
import { tourStore, toursOfShift } from './tour.store.ts';
import { claimConflictError, tourClaims } from './tour-claims.ts';
import { TourError } from './tour-error.ts';
import { referenceErrors, type TourReferences } from './tour-references.ts';
import { storedStops } from './tour-stops.ts';

const resource = (id: string) => ({ type: 'tour', id });

type Query = z.output<typeof TourListQuery>;

const fieldWorkRoles: ReadonlySet<string> = new Set(['technician', 'driver']);

/** The driver a caller is limited to (field workers: themselves), or undefined when they see all. */
export function driverScopeOf(principal: Pick<Principal, 'id' | 'roles'>): string | undefined {
  const onlyFieldWork =
    principal.roles.length > 0 && principal.roles.every((role) => fieldWorkRoles.has(role));
  return onlyFieldWork ? principal.id.toLowerCase() : undefined;
}

function canSee(principal: Pick<Principal, 'id' | 'roles'>, tour: Tour): boolean {
  const scope = driverScopeOf(principal);
  return scope === undefined || tour.driver_id === scope;
}

/** Default order: date ascending; ties in creation order (ids are UUIDv7). */
const defaultOrder: ListOrder[] = [{ field: 'date', direction: 'asc' }];

export async function listTours(ctx: Actor, query: Query) {
  const scope = driverScopeOf(ctx.principal);
  const askedDriver = query.driver_id?.toLowerCase();
  // A field worker asking for another driver's tours gets none: they are not theirs to see.
  if (scope && askedDriver && askedDriver !== scope) return { items: [], page: pageOf(0, query) };
  const driver = scope ?? askedDriver;
  const vehicle = query.vehicle_id?.toLowerCase();
  const order = query.sort?.length ? query.sort : defaultOrder;
  if (query.shift_id) return shiftTourPage(ctx, query, { driver, vehicle, order });
  const page = query.page ?? 0;
  const size = query.size ?? defaultPageSize;
  const request: Omit<ListRequest, 'scope'> = {
    order,
    page,
    size,
    ...(query.status ? { segments: [query.status] } : {}),
    ...(query.date_from || query.date_to
      ? {
          range: {
            ...(query.date_from ? { from: query.date_from } : {}),
            ...(query.date_to ? { to: query.date_to } : {}),
          },
          walk: 'date',
        }
      : {}),
  };
  // No index holds both driver and vehicle: the driver's partitions (the narrower facet as a
  // rule), the vehicle checked on their entries.
  const facet = driver
    ? { name: 'driver_id', value: driver }
    : vehicle
      ? { name: 'vehicle_id', value: vehicle }
      : undefined;
  const { items, total } = await tourStore.of(ctx).page({
    ...request,
    ...(facet ? { facet } : {}),
    ...(driver && vehicle ? { where: (entry: StoredRecord) => entry.vehicle_id === vehicle } : {}),
  });
  return { items, page: pageOf(total, query) };
}

/**
 * The tours of one shift (tour.store.ts `toursOfShift`: a key range holding exactly them), the
 * other filters checked on them, ordered and paged in memory: a shift has a tour or a few.
 */
async function shiftTourPage(
  ctx: Actor,
  query: Query,
  wanted: { driver: string | undefined; vehicle: string | undefined; order: readonly ListOrder[] },
) {
  const { driver, vehicle, order } = wanted;
  const tours = (await toursOfShift(ctx, query.shift_id ?? '')).filter(
    (tour) =>
      (driver === undefined || tour.driver_id === driver) &&
      (vehicle === undefined || tour.vehicle_id === vehicle) &&
      (query.status === undefined || tour.status === query.status) &&
      (query.date_from === undefined || tour.date >= query.date_from) &&
      (query.date_to === undefined || tour.date <= query.date_to),
  );
  const compare = comparatorOf(tourList, order);
  tours.sort((a, b) => compare(a as unknown as StoredRecord, b as unknown as StoredRecord));
  return paginate(tours, query);
}

export async function getTour(ctx: Actor, id: string): Promise<Tour> {
  const tour = await tourStore.of(ctx).get(id);
  if (!tour || !canSee(ctx.principal, tour)) throw new TourError('not-found');
  return tour;
}

export async function createTour(ctx: Actor, input: z.output<typeof CreateTourSchema>): Promise<Tour> {
  await assertReferences(ctx.workspaceId, input);
  const now = new Date().toISOString();
  const tour: Tour = {
    id: newRecordId(),
    ...(input.name !== undefined ? { name: input.name } : {}),
    date: input.date,
    ...(input.vehicle_id ? { vehicle_id: input.vehicle_id.toLowerCase() } : {}),
    ...(input.driver_id ? { driver_id: input.driver_id.toLowerCase() } : {}),
    ...(input.shift_id ? { shift_id: input.shift_id.toLowerCase() } : {}),
    stops: storedStops(input.stops ?? []),
    status: input.status ?? 'PLANNED',
    created_at: now,
    updated_at: now,
    lock_version: 0,
  };
  const event = domainEvent(ctx, 'tour.created', resource(tour.id), tour);
  await saveClaimingOrThrow(ctx, undefined, tour, (claims) => tourStore.of(ctx).create(tour, event, claims));
  return tour;
}

export async function updateTour(
  ctx: Actor,
  id: string,
  patch: z.output<typeof UpdateTourSchema>,
): Promise<Tour> {
  // A driver (tours:update:own alone) reports on the tours it drives only (own-work.ts).
  const ownOnly = writesOwnWorkOnly(ctx.principal, tourOwnWork);
  if (ownOnly) assertOwnWorkFields(patch, tourOwnWork);
  // Only what is sent is checked (SPEC.md rule 5); the tour itself is read by updateVersioned.
  await assertReferences(ctx.workspaceId, patch);
  const normalized = {
    ...patch,
    ...(typeof patch.vehicle_id === 'string' ? { vehicle_id: patch.vehicle_id.toLowerCase() } : {}),
    ...(typeof patch.driver_id === 'string' ? { driver_id: patch.driver_id.toLowerCase() } : {}),
    ...(typeof patch.shift_id === 'string' ? { shift_id: patch.shift_id.toLowerCase() } : {}),
  };
  const { after } = await updateVersioned<Tour>({
    key: `tour:${ctx.workspaceId}:${id}`,
    load: async () => {
      const tour = await tourStore.of(ctx).get(id);
      // Someone else's tour is 403 not_owner for a driver writing it, not the 404 of a read.
      if (tour && ownOnly) assertOwner(tour.driver_id === ctx.principal.id.toLowerCase(), tourOwnWork);
      return tour && canSee(ctx.principal, tour) ? tour : undefined;
    },
    expectedVersion: patch.lock_version,
    apply: (current) => {
      if (ownOnly) assertOwnWorkStatus(patch.status, current.status, tourOwnWork);
      // A case's stop listed again keeps what the live day recorded of it (tour-stops.ts).
      return mergePatch(
        current,
        patch.stops ? { ...normalized, stops: storedStops(patch.stops, current.stops) } : normalized,
      );
    },
    save: (next, current) => {
      const event = domainEvent(ctx, 'tour.updated', resource(id), next, previousAttributes(current, next));
      return saveClaimingOrThrow(ctx, current, next, (claims) =>
        tourStore.of(ctx).replace(next, current, event, claims),
      );
    },
  });
  return after;
}

export async function deleteTour(ctx: Actor, id: string): Promise<void> {
  await deleteExisting<Tour>({
    load: async () => {
      const tour = await tourStore.of(ctx).get(id);
      return tour && canSee(ctx.principal, tour) ? tour : undefined;
    },
    remove: (current) => {
      const event = domainEvent(ctx, 'tour.deleted', resource(id), current);
      return saveClaimingOrThrow(ctx, current, undefined, (claims) =>
        tourStore.of(ctx).remove(current, event, claims),
      );
    },
  });
}

/** Guard writes one tour transaction takes besides the tour, its event and its list entries. */
export const maxClaimsPerWrite = 80;

/**
 * Writes a tour (`write` sends its transaction with the guard writes given) so that it never
 * takes a case or shift another tour holds (tour-claims.ts): such a write is 409 naming the other
 * tour, and nothing is written. A guard that changed hands between its read and the write cancels
 * the transaction; the guards are then read again (the winner is named), unless the tour itself
 * changed, whose conflict is its caller's to handle (updateVersioned, deleteExisting).
 */
async function saveClaimingOrThrow(
  ctx: Actor,
  before: Tour | undefined,
  after: Tour | undefined,
  write: (claims: TableWrite[]) => Promise<void>,
): Promise<void> {
  for (let attempt = 1; attempt <= 4; attempt++) {
    const { writes, conflicts } = await tourClaims(ctx, before, after);
    if (conflicts.length > 0) throw claimConflictError(conflicts, after ?? before ?? { stops: [] });
    if (writes.length > maxClaimsPerWrite) {
      throw new TourError('invalid', {
        fields: [
          {
            type: 'field-invalid',
            pointer: '#/stops',
            detail:
              `at most ${maxClaimsPerWrite} stops can join or leave a tour in one write (this one moves ` +
              `${writes.length}); send the rest in a second write`,
          },
        ],
      });
    }
    try {
      await write(writes);
      return;
    } catch (error) {
      if (!(error instanceof DataError) || error.code === 'unavailable' || writes.length === 0) throw error;
      if (before) {
        const now = await tourStore.of(ctx).getConsistent(before.id);
        if (now?.lock_version !== before.lock_version) throw error;
      }
    }
  }
  throw new TourError('conflict', { detail: 'The stops of the tour kept changing hands; retry.' });
}

async function assertReferences(workspaceId: string, refs: TourReferences): Promise<void> {
  const errors = await referenceErrors(workspaceId, refs);
  if (errors.length > 0) throw new TourError('invalid', { fields: errors });
}
