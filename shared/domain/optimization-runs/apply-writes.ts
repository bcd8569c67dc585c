/**
 * One write of an apply (apply-job.ts): a tour or a case set to the next state of its plan, with
 * its event (as any write of the record: webhooks, the event stream, the audit log, list indexes),
 * its guards (tour-claims.ts: a case on one open tour, a PLANNED tour per shift) and its journal
 * entry (apply-journal.ts), in one transaction. Each write is conditional on the version this
 * apply expects: the one the run read, or the one its journal says it wrote last. A record found
 * at any other version was changed by someone else: ApplyConflict, and the apply undoes.
 */

import { v7 as uuidv7 } from 'uuid';
import type { Actor } from '../../auth/actor.ts';
import { DataError } from '../../data/data-error.ts';
import { domainEvent, previousAttributes } from '../../events/domain-event.ts';
import type { Case } from '../cases/case.schema.ts';
import { caseStore } from '../cases/case.store.ts';
import { withPlanningDefaults } from '../cases/case-planning.ts';
import { withServiceLevel } from '../cases/case-service-level.ts';
import type { StoredStop, Tour } from '../tours/tour.schema.ts';
import { tourStore } from '../tours/tour.store.ts';
import { type ClaimConflict, tourClaims } from '../tours/tour-claims.ts';
import { canonicalStops, plannedShape, withCurrentEtas } from '../tours/tour-stops.ts';
import { ApplyConflict, type Ref } from './apply-conflicts.ts';
import type { Journal, JournalEntry } from './apply-journal.ts';
import type { CaseTarget, TourState } from './apply-plan.ts';

export interface Writer {
  ctx: Actor;
  journal: Journal;
  /** The journal as read and as written since, by key. */
  entries: Map<string, JournalEntry>;
  /** After each write (the crash hook of the tests, progress). */
  written(): Promise<void>;
}

/**
 * The journal entry of a write whose answer was lost (a timed-out attempt that reached the store,
 * retried and then refused), when it landed after all: its entry says so, with the version written.
 */
async function landedAs(
  writer: Writer,
  entry: Omit<JournalEntry, 'lock_version'>,
): Promise<JournalEntry | undefined> {
  const stored = await writer.journal.readOne(entry.key);
  return stored && stored.written_version === entry.written_version && stored.steps_done === entry.steps_done
    ? stored
    : undefined;
}

/** What a record write needs to know of the record. */
export interface RecordRef {
  key: string;
  /** The record (absent: a tour this apply creates). */
  id: string | undefined;
  /** The version the run read. */
  readVersion: number | undefined;
}

const conflictRefs = (conflicts: readonly ClaimConflict[]): Ref[] =>
  conflicts.map((conflict) =>
    'shift_id' in conflict
      ? { type: 'shift', id: conflict.shift_id }
      : { type: 'case', id: conflict.case_id },
  );

/** The record's id and the version this apply expects it at (journal first, else the run's read). */
function expectation(
  writer: Writer,
  ref: RecordRef,
): { id: string | undefined; version: number | undefined } {
  const entry = writer.entries.get(ref.key);
  return entry
    ? { id: entry.record_id, version: entry.written_version }
    : { id: ref.id, version: ref.readVersion };
}

/**
 * The record as this apply expects it, or ApplyConflict (changed, or gone, since). When undoing,
 * a record someone changed after the apply wrote it is still undone if what the apply wrote is
 * untouched (`untouched`: their change, a title say, is kept; only the apply's fields go back).
 */
async function expected<T extends { lock_version: number }>(
  read: (id: string) => Promise<T | undefined>,
  writer: Writer,
  ref: RecordRef,
  type: 'case' | 'tour',
  untouched?: (current: T) => boolean,
): Promise<T | undefined> {
  const { id, version } = expectation(writer, ref);
  if (id === undefined || version === -1) return undefined;
  const current = await read(id);
  if (current && current.lock_version !== version && untouched?.(current)) return current;
  if (!current || current.lock_version !== version) throw new ApplyConflict([{ type, id }]);
  return current;
}

/** What a plan decides of a tour: ETAs, which the live day rewrites as it likes, are not part of it. */
const tourState = (tour: Omit<TourState, 'stops'> & { stops: readonly StoredStop[]; status: string }) =>
  JSON.stringify([plannedShape(tour.stops), tour.driver_id, tour.vehicle_id, tour.shift_id, tour.status]);

/**
 * Whether a tour still holds exactly what the apply last wrote (`state`, PLANNED; a REPAIR run's
 * tour on the road, IN_PROGRESS), whatever ETAs the live day wrote since.
 */
export function tourHolds(
  state: TourState,
  status: 'PLANNED' | 'IN_PROGRESS' = 'PLANNED',
): (tour: Tour) => boolean {
  const wanted = tourState({ ...state, status });
  return (tour) => tourState(tour) === wanted;
}

/** Whether a case still holds exactly the planning fields the apply wrote. */
export function caseHolds(target: CaseTarget): (record: Case) => boolean {
  return (record) =>
    record.status === target.status &&
    record.assignee_id === target.assignee_id &&
    record.scheduled_start === target.scheduled_start &&
    record.scheduled_end === target.scheduled_end;
}

function nextTour(current: Tour | undefined, state: TourState, date: string): Tour {
  const now = new Date().toISOString();
  const base: Tour = current
    ? { ...current, lock_version: current.lock_version + 1, updated_at: now }
    : { id: uuidv7(), date, status: 'PLANNED', stops: [], created_at: now, updated_at: now, lock_version: 0 };
  const stops = canonicalStops(state.stops);
  // A tour on the road keeps the ETAs the live day wrote since the run read it.
  const next: Tour = {
    ...base,
    stops: current?.status === 'IN_PROGRESS' ? withCurrentEtas(stops, current.stops) : stops,
  };
  for (const field of ['driver_id', 'vehicle_id', 'shift_id'] as const) {
    if (state[field]) next[field] = state[field];
    else delete next[field];
  }
  return next;
}

/**
 * Writes a tour as `state` (creating it on `date` when the plan creates it), recording `stepsDone`.
 * A guard race lost (another tour took a case between the read and the write) is read again.
 */
export async function writeTour(
  writer: Writer,
  ref: RecordRef,
  state: TourState | undefined,
  stepsDone: number,
  date: string,
  extra: Partial<JournalEntry> = {},
  untouched?: (tour: Tour) => boolean,
): Promise<void> {
  const { ctx, journal, entries } = writer;
  for (let attempt = 1; ; attempt++) {
    const current = await expected(
      (id) => tourStore.of(ctx).getConsistent(id),
      writer,
      ref,
      'tour',
      untouched,
    );
    const next = state ? nextTour(current, state, date) : undefined;
    const target = next ?? current;
    if (!target) return;
    const { writes, conflicts } = await tourClaims(ctx, current, next);
    if (conflicts.length > 0) throw new ApplyConflict(conflictRefs(conflicts));
    const previous = entries.get(ref.key);
    const entry = {
      key: ref.key,
      record_id: target.id,
      steps_done: stepsDone,
      written_version: next ? next.lock_version : -1,
      created: previous?.created ?? !current,
      ...extra,
    };
    const resource = { type: 'tour', id: target.id };
    const extraWrites = [...writes, journal.write(entry, previous)];
    try {
      if (!current && next) {
        await tourStore.of(ctx).create(next, domainEvent(ctx, 'tour.created', resource, next), extraWrites);
      } else if (current && next) {
        const event = domainEvent(ctx, 'tour.updated', resource, next, previousAttributes(current, next));
        await tourStore.of(ctx).replace(next, current, event, extraWrites);
      } else if (current) {
        await tourStore
          .of(ctx)
          .remove(current, domainEvent(ctx, 'tour.deleted', resource, current), extraWrites);
      }
    } catch (error) {
      if (!(error instanceof DataError) || error.code === 'unavailable') throw error;
      // Its answer lost, a retry of a write that landed is refused: the journal says it landed.
      const landed = await landedAs(writer, entry);
      if (landed) {
        entries.set(ref.key, landed);
        await writer.written();
        return;
      }
      if (attempt >= 4) throw error;
      // The tour or its journal entry changed: someone else's write (expected() names it); else a guard race.
      continue;
    }
    entries.set(ref.key, { ...entry, lock_version: previous ? previous.lock_version + 1 : 0 });
    await writer.written();
    return;
  }
}

function nextCase(current: Case, target: CaseTarget): Case {
  const next: Case = {
    ...current,
    status: target.status,
    lock_version: current.lock_version + 1,
    updated_at: new Date().toISOString(),
  };
  for (const field of ['assignee_id', 'scheduled_start', 'scheduled_end'] as const) {
    if (target[field]) next[field] = target[field];
    else delete next[field];
  }
  // A plan moves status and window, which the service level reads (a finish after due_by, a window past it).
  return withServiceLevel(next, Date.now(), current);
}

/** Writes a case's planning fields as `target`, recording `stepsDone`. */
export async function writeCase(
  writer: Writer,
  ref: RecordRef,
  target: CaseTarget,
  stepsDone: number,
  extra: Partial<JournalEntry> = {},
  untouched?: (record: Case) => boolean,
): Promise<void> {
  const { ctx, journal, entries } = writer;
  const read = async (id: string) => {
    const found = await caseStore.of(ctx).getConsistent(id);
    return found && withPlanningDefaults(found);
  };
  const current = await expected(read, writer, ref, 'case', untouched);
  if (!current) throw new ApplyConflict([{ type: 'case', id: ref.id ?? '' }]);
  const next = nextCase(current, target);
  const previous = entries.get(ref.key);
  const entry = {
    key: ref.key,
    record_id: current.id,
    steps_done: stepsDone,
    written_version: next.lock_version,
    ...extra,
  };
  const event = domainEvent(
    ctx,
    'case.updated',
    { type: 'case', id: current.id },
    next,
    previousAttributes(current, next),
  );
  try {
    await caseStore.of(ctx).replace(next, current, event, [journal.write(entry, previous)]);
  } catch (error) {
    if (!(error instanceof DataError) || error.code === 'unavailable') throw error;
    const landed = await landedAs(writer, entry);
    if (!landed) throw new ApplyConflict([{ type: 'case', id: current.id }]);
    entries.set(ref.key, landed);
    await writer.written();
    return;
  }
  entries.set(ref.key, { ...entry, lock_version: previous ? previous.lock_version + 1 : 0 });
  await writer.written();
}
