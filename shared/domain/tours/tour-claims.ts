/**
 * The two uniqueness rules of dispatch (API-DECISIONS.md, "Dispatch you can trust"), held by guard
 * items written in the same transaction as the tour that takes or gives them up, so that no race
 * of two writers can break them:
 *
 * - one open tour per case: a case is a stop of at most one tour whose status is PLANNED or
 *   IN_PROGRESS; `T#<ws>#CASE_TOUR / <case_id>` names that tour;
 * - one PLANNED tour per shift; `T#<ws>#SHIFT_TOUR / <shift_id>` names it.
 *
 * A tour write works out, from the tour before and after it, which guards it takes (created, or a
 * stale one taken over on its version) and which it gives up (deleted on its version). The guards
 * are read first, strongly consistent (one BatchGetItem per 100), so a conflict is answered before
 * anything is written and names the other tour; a writer that races in between loses on the
 * guard's condition (the transaction is cancelled whole), and reading the guards again names the
 * winner (tour.service.ts `saveClaimingOrThrow`).
 *
 * Guards are only ever written with their tours, so a guard describes its tour. One whose tour no
 * longer holds it (data from before the guards, a tour removed outside the service) is stale:
 * the other tour is read, and such a guard is taken over.
 */
import { resourceStore, type StoreScope } from '../../data/resource-store.ts';
import type { TableWrite } from '../../data/table.ts';
import type { Tour } from './tour.schema.ts';
import { tourStore } from './tour.store.ts';
import { TourError } from './tour-error.ts';

interface Guard {
  /** The case or shift guarded. */
  id: string;
  tour_id: string;
  lock_version: number;
}

const caseGuards = resourceStore<Guard>('case_tour', 'CASE_TOUR');
const shiftGuards = resourceStore<Guard>('shift_tour', 'SHIFT_TOUR');

/** Tours that hold their stops: the day is planned or on the road. */
export const openTourStatuses: ReadonlySet<string> = new Set(['PLANNED', 'IN_PROGRESS']);

/** The cases a tour holds: its stops while it is open, none otherwise (or when absent). */
export function heldCases(tour: Pick<Tour, 'status' | 'stops'> | undefined): Set<string> {
  return new Set(tour && openTourStatuses.has(tour.status) ? tour.stops.map((stop) => stop.case_id) : []);
}

/** The shift a tour holds: its shift while it is PLANNED. */
export function heldShift(tour: Pick<Tour, 'status' | 'shift_id'> | undefined): string | undefined {
  return tour?.status === 'PLANNED' ? tour.shift_id : undefined;
}

/** Another tour holds what a write would take. */
export type ClaimConflict = { case_id: string; tour_id: string } | { shift_id: string; tour_id: string };

export interface TourClaims {
  /** The guard writes that join the tour's transaction (empty when there are conflicts). */
  writes: TableWrite[];
  conflicts: ClaimConflict[];
}

const difference = <T>(a: ReadonlySet<T>, b: ReadonlySet<T>) => [...a].filter((value) => !b.has(value));

/**
 * The guard writes of a tour going from `before` to `after` (undefined: created, or deleted), or
 * the conflicts that forbid it. Cost: 1 strongly consistent BatchGetItem per 100 guards that
 * change hands (none when the stops and status that matter stay), and 1 more of the other tours
 * when a guard names one.
 */
/**
 * Cases that change tours inside one transaction (a booking moves a case from its tour to the
 * shift's): the giving tour leaves their guards alone, the taking tour takes them over from it.
 */
export interface HandOver {
  /** Case → the tour that gives it up in the same transaction (for the taking tour). */
  from?: ReadonlyMap<string, string>;
  /** Cases another tour takes in the same transaction (for the giving tour). */
  to?: ReadonlySet<string>;
}

export async function tourClaims(
  scope: StoreScope,
  before: Tour | undefined,
  after: Tour | undefined,
  handOver: HandOver = {},
): Promise<TourClaims> {
  const tourId = (after ?? before)?.id ?? '';
  const heldBefore = heldCases(before);
  const heldAfter = heldCases(after);
  const taken = difference(heldAfter, heldBefore);
  const given = difference(heldBefore, heldAfter).filter((id) => !handOver.to?.has(id));
  const shiftBefore = heldShift(before);
  const shiftAfter = heldShift(after);
  const shiftTaken = shiftAfter && shiftAfter !== shiftBefore ? [shiftAfter] : [];
  const shiftGiven = shiftBefore && shiftBefore !== shiftAfter ? [shiftBefore] : [];
  if (taken.length + given.length + shiftTaken.length + shiftGiven.length === 0) {
    return { writes: [], conflicts: [] };
  }
  const [caseRows, shiftRows] = await Promise.all([
    caseGuards.of(scope).getManyConsistent([...taken, ...given]),
    shiftGuards.of(scope).getManyConsistent([...shiftTaken, ...shiftGiven]),
  ]);
  const caseGuardOf = new Map([...taken, ...given].map((id, index) => [id, caseRows[index]]));
  const shiftGuardOf = new Map([...shiftTaken, ...shiftGiven].map((id, index) => [id, shiftRows[index]]));
  const othersHolding = await holdersOf(scope, tourId, [
    ...taken.map((id) => caseGuardOf.get(id)),
    ...shiftTaken.map((id) => shiftGuardOf.get(id)),
  ]);
  const writes: TableWrite[] = [];
  const conflicts: ClaimConflict[] = [];
  const take = (
    store: typeof caseGuards,
    id: string,
    guard: Guard | undefined,
    held: boolean,
    conflict: ClaimConflict,
  ) => {
    if (guard?.tour_id === tourId) return;
    if (guard && held) {
      conflicts.push(conflict);
      return;
    }
    writes.push(guardWrite(scope, store, id, tourId, guard));
  };
  for (const id of taken) {
    const guard = caseGuardOf.get(id);
    const holder = guard ? othersHolding.get(guard.tour_id) : undefined;
    const handed = guard !== undefined && handOver.from?.get(id) === guard.tour_id;
    take(caseGuards, id, guard, !handed && heldCases(holder).has(id), {
      case_id: id,
      tour_id: guard?.tour_id ?? '',
    });
  }
  for (const id of shiftTaken) {
    const guard = shiftGuardOf.get(id);
    const holder = guard ? othersHolding.get(guard.tour_id) : undefined;
    take(shiftGuards, id, guard, heldShift(holder) === id, { shift_id: id, tour_id: guard?.tour_id ?? '' });
  }
  if (conflicts.length > 0) return { writes: [], conflicts };
  for (const id of given) writes.push(...releaseWrite(scope, caseGuards, id, tourId, caseGuardOf.get(id)));
  for (const id of shiftGiven)
    writes.push(...releaseWrite(scope, shiftGuards, id, tourId, shiftGuardOf.get(id)));
  return { writes, conflicts };
}

/** The other tours the guards name, read strongly consistent (to tell a holder from a stale guard). */
async function holdersOf(
  scope: StoreScope,
  tourId: string,
  guards: ReadonlyArray<Guard | undefined>,
): Promise<Map<string, Tour>> {
  const ids = [
    ...new Set(guards.flatMap((guard) => (guard && guard.tour_id !== tourId ? [guard.tour_id] : []))),
  ];
  if (ids.length === 0) return new Map();
  const tours = await tourStore.of(scope).getManyConsistent(ids);
  return new Map(tours.flatMap((tour) => (tour ? [[tour.id, tour]] : [])));
}

/** Take a guard: create it, or take a stale one over on the version read. */
function guardWrite(
  scope: StoreScope,
  store: typeof caseGuards,
  id: string,
  tourId: string,
  stale: Guard | undefined,
): TableWrite {
  const key = store.of(scope).key(id);
  const entity = store === caseGuards ? 'case_tour' : 'shift_tour';
  return stale
    ? {
        kind: 'replace',
        key,
        entity,
        record: { id, tour_id: tourId, lock_version: stale.lock_version + 1 },
        expectedVersion: stale.lock_version,
      }
    : { kind: 'create', key, entity, record: { id, tour_id: tourId, lock_version: 0 } };
}

/** Give a guard up: only one this tour holds (another tour's, or none, is left as it is). */
function releaseWrite(
  scope: StoreScope,
  store: typeof caseGuards,
  id: string,
  tourId: string,
  guard: Guard | undefined,
): TableWrite[] {
  if (guard?.tour_id !== tourId) return [];
  return [{ kind: 'delete', key: store.of(scope).key(id), expectedVersion: guard.lock_version }];
}

/** The tours holding each case, as their guards say (one BatchGetItem per 100 cases). */
export function openToursOfCases(
  scope: StoreScope,
  caseIds: readonly string[],
): Promise<Map<string, string>> {
  return toursOfGuards(caseGuards, scope, caseIds);
}

/** The PLANNED tour of a shift, as its guard says. */
export async function plannedTourOfShift(scope: StoreScope, shiftId: string): Promise<string | undefined> {
  return (await shiftGuards.of(scope).getConsistent(shiftId))?.tour_id;
}

/** The PLANNED tours of shifts, as their guards say (one BatchGetItem per 100 shifts). */
export function plannedToursOfShifts(
  scope: StoreScope,
  shiftIds: readonly string[],
): Promise<Map<string, string>> {
  return toursOfGuards(shiftGuards, scope, shiftIds);
}

/** Guarded id → the tour its guard names (one strongly consistent BatchGetItem per 100 ids). */
async function toursOfGuards(
  store: typeof caseGuards,
  scope: StoreScope,
  ids: readonly string[],
): Promise<Map<string, string>> {
  const guards = await store.of(scope).getManyConsistent(ids);
  return new Map(guards.flatMap((guard) => (guard ? [[guard.id, guard.tour_id]] : [])));
}

/**
 * The 409 of a tour write that would take what another tour holds: `data.tour_id` names the (first)
 * other tour, `data.conflicts` every case or shift and its tour, `errors[]` points at the stops.
 */
export function claimConflictError(
  conflicts: readonly ClaimConflict[],
  tour: Pick<Tour, 'stops'>,
): TourError {
  const shift = conflicts.find((conflict) => 'shift_id' in conflict);
  const cases = conflicts.filter(
    (conflict): conflict is { case_id: string; tour_id: string } => 'case_id' in conflict,
  );
  const first = conflicts[0] as ClaimConflict;
  const detail = shift
    ? `The shift has a PLANNED tour already (${shift.tour_id}): a shift has one PLANNED tour at most.`
    : `A case is a stop of another open tour (${first.tour_id}): a case is a stop of one PLANNED or ` +
      'IN_PROGRESS tour at most. Remove it there first (or apply an optimization run, which moves it).';
  const stopIndex = new Map(tour.stops.map((stop, index) => [stop.case_id, index]));
  return new TourError('conflict', {
    detail,
    data: {
      reason: shift ? 'shift_has_planned_tour' : 'case_on_open_tour',
      tour_id: first.tour_id,
      conflicts: conflicts.map((conflict) => ({ ...conflict })),
    },
    fields: [
      ...(shift ? [{ type: 'field-invalid' as const, pointer: '#/shift_id', detail }] : []),
      ...cases.map((conflict) => ({
        type: 'field-invalid' as const,
        pointer: `#/stops/${stopIndex.get(conflict.case_id) ?? 0}/case_id`,
        detail: `the case is a stop of the open tour ${conflict.tour_id}`,
      })),
    ],
  });
}
