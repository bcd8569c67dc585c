/**
 * The day board's data (GET /api/v2/scheduling/board.svg?date=…; day-board.ts draws it): the
 * shifts overlapping the UTC day, each with its tour of that day (the open or finished one; a
 * cancelled tour is not the day's), the tour's stops with their cases, and the technicians'
 * names. A stop's plan is its planned_arrival (else the case's scheduled_start) for the case's
 * duration; what happened is its arrived_at and departed_at, once the live day records them; its
 * status PENDING until then. Cost: one key range of the shifts' start order, one Query of each
 * shift's tours, 1 BatchGetItem per 100 cases and one of the technicians.
 */
import type { Actor } from '../../auth/actor.ts';
import { parseIsoDuration } from '../../schema/duration.ts';
import { caseStore } from '../cases/case.store.ts';
import { durationSecondsOf } from '../cases/case-planning.ts';
import { shiftsOverlapping } from '../shifts/shift.store.ts';
import { toursOfShift } from '../tours/tour.store.ts';
import { principalStore } from '../users/user.store.ts';
import { type BoardLane, type BoardStop, drawBoard } from './day-board.ts';

const dayMs = 24 * 3_600_000;

/** What the live day adds to a stop (API-DECISIONS.md, "The live day"), when it is there. */
interface LiveStop {
  case_id: string;
  planned_arrival?: string;
  status?: string;
  arrived_at?: string;
  departed_at?: string;
  late_by?: string;
}

const ms = (iso: string | undefined) => (iso ? Date.parse(iso) : undefined);

/** `PT12M` → 720 (the late_by the live day writes). */
function seconds(duration: string | undefined): number | undefined {
  const parsed = duration ? parseIsoDuration(duration) : undefined;
  return parsed && 'seconds' in parsed ? parsed.seconds : undefined;
}

export async function dayBoard(ctx: Actor, date: string, now = Date.now()): Promise<string> {
  const from = Date.parse(`${date}T00:00:00Z`);
  const shifts = (
    await shiftsOverlapping(ctx, new Date(from).toISOString(), new Date(from + dayMs).toISOString())
  ).sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : a.id < b.id ? -1 : 1));
  const tours = await Promise.all(
    shifts.map(async (shift) =>
      (await toursOfShift(ctx, shift.id)).find((tour) => tour.date === date && tour.status !== 'CANCELLED'),
    ),
  );
  const caseIds = tours.flatMap((tour) => tour?.stops.map((stop) => stop.case_id) ?? []);
  const userIds = [...new Set(shifts.map((shift) => shift.user_id))];
  const [cases, people] = await Promise.all([
    caseIds.length > 0 ? caseStore.of(ctx).getMany(caseIds) : [],
    userIds.length > 0 ? principalStore.of(ctx).getMany(userIds) : [],
  ]);
  const caseOf = new Map(cases.flatMap((record) => (record ? [[record.id, record] as const] : [])));
  const nameOf = new Map(
    people.flatMap((person) =>
      person
        ? [[person.id, [person.firstname, person.lastname].filter(Boolean).join(' ') || person.email]]
        : [],
    ),
  );
  const lanes: BoardLane[] = shifts.map((shift, index) => {
    const stops: BoardStop[] = ((tours[index]?.stops ?? []) as LiveStop[]).map((stop) => {
      const record = caseOf.get(stop.case_id);
      const plannedStart = ms(stop.planned_arrival ?? record?.scheduled_start);
      const lateByS = seconds(stop.late_by);
      return {
        caseId: stop.case_id,
        title: record?.title ?? stop.case_id,
        status: stop.status ?? 'PENDING',
        ...(plannedStart !== undefined
          ? { plannedStart, plannedEnd: plannedStart + (record ? durationSecondsOf(record) : 1800) * 1000 }
          : {}),
        ...(stop.arrived_at ? { arrivedAt: Date.parse(stop.arrived_at) } : {}),
        ...(stop.departed_at ? { departedAt: Date.parse(stop.departed_at) } : {}),
        ...(lateByS ? { lateByS } : {}),
      };
    });
    return {
      label: `${nameOf.get(shift.user_id) ?? shift.user_id} ${shift.start.slice(11, 16)}–${shift.end.slice(11, 16)}`,
      shiftStart: Date.parse(shift.start),
      shiftEnd: Date.parse(shift.end),
      breaks: (shift.breaks ?? []).map((pause) => ({
        from: Date.parse(pause.earliest_start),
        to: Date.parse(pause.latest_end),
      })),
      stops,
    };
  });
  return drawBoard({ date, lanes, now });
}
