/**
 * What planning reads of cases (API-DECISIONS.md, "Scheduling and dispatch"): their planning
 * fields with the default filled in, and the candidate cases of an optimization run.
 *
 * - `duration` and `schedule_lock` are always published: PT1H and NONE for a case that never had
 *   one (cases written before the fields existed lack them in the table). Every answer and event goes through
 *   `withPlanningDefaults`, and a write stores the default with the case.
 * - A case's windows say when the work may start; a window meets a horizon [from, to) when it
 *   ends at or after `from` and starts before `to`. A case without windows meets every horizon.
 */
import type { StoreScope } from '../../data/resource-store.ts';
import type { StoredRecord } from '../../data/table.ts';
import { parseIsoDuration } from '../../schema/duration.ts';
import { toursOfStatus } from '../tours/tour.store.ts';
import { type Case, defaultCaseDuration, type ScheduleLock } from './case.schema.ts';
import { caseStore } from './case.store.ts';

/** The case as published: `duration` always present. */
export function withPlanningDefaults<T extends Case>(
  record: T,
): T & { duration: string; schedule_lock: ScheduleLock } {
  if (record.duration !== undefined && record.schedule_lock !== undefined) {
    return record as T & { duration: string; schedule_lock: ScheduleLock };
  }
  return {
    ...record,
    duration: record.duration ?? defaultCaseDuration,
    schedule_lock: record.schedule_lock ?? 'NONE',
  };
}

/** Seconds of the case's on-site work (its duration, or the default). */
export function durationSecondsOf(record: Pick<Case, 'duration'>): number {
  const parsed = parseIsoDuration(record.duration ?? defaultCaseDuration);
  return 'seconds' in parsed ? parsed.seconds : 3600;
}

/** Whether the case may start some time in [from, to): a window meets it, or it has none. */
export function windowsMeet(record: Pick<Case, 'time_windows'>, from: string, to: string): boolean {
  const windows = record.time_windows ?? [];
  return windows.length === 0 || windows.some((window) => window.end >= from && window.start < to);
}

/** Statuses of the cases a run plans. */
export const plannableStatuses = ['NEW', 'SCHEDULED'] as const;

/** Matches read per page of a walk that wants them all. */
const walkPage = 1000;

/** The entry check (case.list.ts `listedValues`): no location, or no window near the horizon. */
export function mayBeCandidate(entry: StoredRecord, from: string, to: string): boolean {
  // Entries written before the planning values carry none of them: their items decide.
  if (entry.located === 0) return false;
  if (typeof entry.windows_from !== 'string' || typeof entry.windows_to !== 'string') return true;
  return entry.windows_to >= from && entry.windows_from < to;
}

/**
 * The cases an optimization run over [from, to) plans when none are named (API-DECISIONS.md,
 * "Dispatch you can trust"): NEW cases, and SCHEDULED cases whose scheduled_start falls in the
 * horizon (work of other days stays where it is), each with a location, whose windows meet the
 * horizon (or that have none), and that are not a stop of a tour IN_PROGRESS or DONE (such tours
 * are fixed: their work is under way or over). ON_HOLD cases wait for something: never taken.
 * NEW cases by creation (oldest first), then the SCHEDULED ones by start, with their planning
 * defaults filled in.
 *
 * Cost: the NEW partition of the cases' creation index, every entry (location and window bounds
 * are checked on the entries: ~20 entries per read unit, so 2,000 new cases read ~100 units);
 * the horizon's key range of the SCHEDULED partition of the schedule index; one BatchGetItem per
 * 100 candidates; and the tours that fix cases: the IN_PROGRESS partition of the tours' date index
 * whole (the tours on the road now) and the DONE tours dated from the day before `from` to the
 * day after `to` (a key range), one BatchGetItem per 100 tours. A DONE tour of another week does
 * not hold its cases back: a case still open after its tour was done is planned again.
 */
export async function planningCandidates(scope: StoreScope, from: string, to: string): Promise<Case[]> {
  const [fresh, scheduled, fixed] = await Promise.all([
    newCasesMeeting(scope, from, to),
    scheduledInHorizon(scope, from, to),
    fixedCaseIds(scope, from, to),
  ]);
  return [...fresh, ...scheduled]
    .filter(
      (record) =>
        record.location !== undefined &&
        (record.status === 'NEW' ||
          (record.status === 'SCHEDULED' &&
            record.scheduled_start !== undefined &&
            startsWithin(record.scheduled_start, from, to))) &&
        windowsMeet(record, from, to) &&
        !fixed.has(record.id),
    )
    .map(withPlanningDefaults);
}

/** Whether an instant lies in [from, to) (compared as instants: offsets and precision vary). */
function startsWithin(instant: string, from: string, to: string): boolean {
  const at = Date.parse(instant);
  return at >= Date.parse(from) && at < Date.parse(to);
}

async function newCasesMeeting(scope: StoreScope, from: string, to: string): Promise<Case[]> {
  const cases: Case[] = [];
  for (let page = 0; ; page++) {
    const { items } = await caseStore.of(scope).page({
      segments: ['NEW'],
      order: [{ field: 'created_at', direction: 'asc' }],
      where: (entry) => mayBeCandidate(entry, from, to),
      page,
      size: walkPage,
      skipTotal: true,
    });
    cases.push(...items);
    if (items.length < walkPage) return cases;
  }
}

/** SCHEDULED cases whose start lies in the horizon: a key range of their schedule order. */
async function scheduledInHorizon(scope: StoreScope, from: string, to: string): Promise<Case[]> {
  const cases: Case[] = [];
  // The range is inclusive and compares text: a day either side, the instants checked on the items.
  const range = { from: day(from, -1), to: day(to, 1) };
  for (let page = 0; ; page++) {
    const { items } = await caseStore.of(scope).page({
      segments: ['SCHEDULED'],
      order: [{ field: 'scheduled_start', direction: 'asc' }],
      range,
      where: (entry) => entry.located !== 0,
      page,
      size: walkPage,
      skipTotal: true,
    });
    cases.push(...items);
    if (items.length < walkPage) return cases;
  }
}

const day = (instant: string, offsetDays: number) =>
  new Date(Date.parse(instant) + offsetDays * 86_400_000).toISOString().slice(0, 10);

/** Ids of the cases that are stops of a tour on the road, or of a tour done around the horizon. */
async function fixedCaseIds(scope: StoreScope, from: string, to: string): Promise<Set<string>> {
  const [inProgress, done] = await Promise.all([
    toursOfStatus(scope, 'IN_PROGRESS'),
    toursOfStatus(scope, 'DONE', { from: day(from, -1), to: day(to, 1) }),
  ]);
  return new Set([...inProgress, ...done].flatMap((tour) => tour.stops.map((stop) => stop.case_id)));
}
