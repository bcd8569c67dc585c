/**
 * A technician's day for a fixed order of tasks: breaks go wherever the optimizer could put them,
 * a day is refused only when no placement works, and the answer agrees with an independent brute
 * force (test/support/tour-feasibility.ts) and with the optimizer itself.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Stop, simulate } from '../../../test/support/optimizer/vroom-checker.ts';
import { checkTourFeasible } from '../../../test/support/tour-feasibility.ts';
import { solve } from '../../optimizer/solve.ts';
import {
  type DayBreak,
  type DayTask,
  daySchedule,
  type ShiftBounds,
  type TravelSeconds,
} from './day-schedule.ts';
import type { Place } from './travel.ts';

/** Places numbered 0, 1, 2…; travel between them read from a matrix. */
const spot = (index: number): Place => ({ latitude: index, longitude: 0 });
const matrixTravel =
  (matrix: readonly (readonly number[])[]): TravelSeconds =>
  (a, b) =>
    matrix[a.latitude]?.[b.latitude] ?? Number.POSITIVE_INFINITY;
const noTravel: TravelSeconds = () => 0;
const min = (minutes: number) => minutes * 60;

const day = (overrides: Partial<ShiftBounds> = {}): ShiftBounds => ({
  start: 0,
  end: min(120),
  startPlace: spot(0),
  endPlace: spot(0),
  breaks: [],
  ...overrides,
});
const pause = (earliest: number, latestEnd: number, minutes: number): DayBreak => ({
  earliestStart: min(earliest),
  latestEnd: min(latestEnd),
  durationSeconds: min(minutes),
});
const job = (
  caseId: string,
  minutes: number,
  windows: Array<[number, number]> = [],
  place = spot(0),
): DayTask => ({
  caseId,
  place,
  durationSeconds: min(minutes),
  windows: windows.map(([open, close]) => [min(open), min(close)] as const),
});

describe('Function: daySchedule', () => {
  describe('breaks', () => {
    it('takes a break before the first stop when a promise later on needs it there', () => {
      // Prepare: break in 0–30 for 10; A may start from 5 for 10; B promised at 20 for 10
      const shift = day({ breaks: [pause(0, 30, 10)] });
      const tasks = [job('a', 10, [[5, 120]]), job('b', 10, [[20, 20]])];

      // Act
      const schedule = daySchedule(shift, tasks, noTravel);

      // Assess: break 0–10, A 10–20, B 20–30
      expect(schedule?.breaks).toEqual([{ start: 0, end: min(10), gap: 0 }]);
      expect(schedule?.tasks).toEqual([
        { arrival: min(10), start: min(10) },
        { arrival: min(20), start: min(20) },
      ]);
      expect(schedule?.endArrival).toBe(min(30));
    });

    it('takes a break after the last stop, on the way to the end place', () => {
      // Prepare: a visit promised at 0 for an hour; a 20-minute break from 30 until 100; 15 to drive home
      const travel = matrixTravel([
        [0, 0],
        [min(15), 0],
      ]);
      const shift = day({ breaks: [pause(30, 100, 20)] });

      // Act
      const schedule = daySchedule(shift, [job('a', 60, [[0, 0]], spot(1))], travel);

      // Assess: break 60–80 in the last gap, home at 60 + 15 + 20
      expect(schedule?.breaks).toEqual([{ start: min(60), end: min(80), gap: 1 }]);
      expect(schedule?.endArrival).toBe(min(95));
    });

    it('takes two breaks in one gap, one after the other', () => {
      // Prepare: A promised at 0, B at 40; breaks 10–30 and 20–40, ten minutes each
      const shift = day({ breaks: [pause(20, 40, 10), pause(10, 30, 10)] });
      const tasks = [job('a', 10, [[0, 0]]), job('b', 10, [[40, 40]])];

      // Act
      const schedule = daySchedule(shift, tasks, noTravel);

      // Assess: reported in the shift's order of breaks
      expect(schedule?.breaks).toEqual([
        { start: min(20), end: min(30), gap: 1 },
        { start: min(10), end: min(20), gap: 1 },
      ]);
    });

    it('counts the wait for a break window as driving', () => {
      // Prepare: A done at 10, 15 to drive to B, a break that must start between 30 and 35
      const travel = matrixTravel([
        [0, 0],
        [min(15), 0],
      ]);
      const shift = day({ breaks: [pause(30, 45, 10)] });
      const tasks = [job('a', 10, [[0, 0]], spot(1)), job('b', 20, [[0, 100]])];

      // Act
      const schedule = daySchedule(shift, tasks, travel);

      // Assess: the drive fits in the 20 minutes of waiting, B is reached when the break ends
      expect(schedule?.tasks[1]).toEqual({ arrival: min(40), start: min(40) });
    });

    it('refuses a day whose break fits in no gap', () => {
      // Prepare: a 15-minute break within 10–30, a visit promised at 5 for half an hour
      const shift = day({ breaks: [pause(10, 30, 15)] });

      // Act / Assess
      expect(daySchedule(shift, [job('a', 30, [[5, 5]])], noTravel)).toBeUndefined();
    });

    it('keeps breaks in the order the optimizer keeps them, even when another order would fit', () => {
      // Prepare: a lunch hour from 0 to 200 and a short break within 10–40: lunch comes first
      const shift = day({ end: min(300), breaks: [pause(0, 200, 60), pause(10, 40, 10)] });
      const check = { shift, stops: [], travel: noTravel };

      // Act / Assess: short break first would fit, but the optimizer never plans it so
      expect(daySchedule(shift, [], noTravel)).toBeUndefined();
      expect(checkTourFeasible({ ...check, breakOrder: 'any' }).feasible).toBe(true);
    });
  });

  describe('hours and windows', () => {
    it('refuses a day that reaches the end place after the shift ends', () => {
      const travel = matrixTravel([
        [0, 0],
        [min(15), 0],
      ]);
      const tasks = [job('a', 80, [[10, 100]], spot(1))];

      expect(daySchedule(day({ end: min(104) }), tasks, travel)).toBeUndefined();
      expect(daySchedule(day({ end: min(105) }), tasks, travel)?.endArrival).toBe(min(105));
    });

    it.each([
      { title: 'starts on arrival inside a window', arrival: 12, windows: [[10, 20]], start: 12 },
      { title: 'waits for a window that opens later', arrival: 5, windows: [[10, 20]], start: 10 },
      {
        title: 'waits for the next of several windows',
        arrival: 25,
        windows: [
          [30, 40],
          [10, 20],
        ],
        start: 30,
      },
      { title: 'starts any time without windows', arrival: 7, windows: [], start: 7 },
    ] as Array<{ title: string; arrival: number; windows: Array<[number, number]>; start: number }>)(
      '$title',
      ({ arrival, windows, start }) => {
        const travel = matrixTravel([
          [0, min(arrival)],
          [0, 0],
        ]);
        const schedule = daySchedule(day(), [job('a', 5, windows, spot(1))], travel);
        expect(schedule?.tasks[0]).toEqual({ arrival: min(arrival), start: min(start) });
      },
    );

    it('refuses a day that reaches a task after its windows close', () => {
      const travel = matrixTravel([
        [0, min(25)],
        [0, 0],
      ]);
      expect(daySchedule(day(), [job('a', 5, [[10, 20]], spot(1))], travel)).toBeUndefined();
    });
  });
});

/**
 * A small random day: ≤ 6 tasks, ≤ 2 breaks, integer times, a random travel matrix over 4 places.
 * About a fifth of the days with 3 tasks or more work: tight enough that breaks decide.
 */
const randomDay = fc.record({
  start: fc.integer({ min: 0, max: 30 }),
  length: fc.integer({ min: 0, max: 600 }),
  startPlace: fc.integer({ min: 0, max: 3 }),
  endPlace: fc.integer({ min: 0, max: 3 }),
  breaks: fc.array(
    fc.record({
      earliestStart: fc.integer({ min: 0, max: 300 }),
      span: fc.integer({ min: 0, max: 200 }),
      durationSeconds: fc.integer({ min: 0, max: 40 }),
    }),
    { maxLength: 2 },
  ),
  tasks: fc.array(
    fc.record({
      place: fc.integer({ min: 0, max: 3 }),
      durationSeconds: fc.integer({ min: 0, max: 40 }),
      windows: fc.array(fc.tuple(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 200 })), {
        maxLength: 2,
      }),
    }),
    { maxLength: 6 },
  ),
  matrix: fc.array(fc.array(fc.integer({ min: 0, max: 30 }), { minLength: 4, maxLength: 4 }), {
    minLength: 4,
    maxLength: 4,
  }),
});
type RandomDay = typeof randomDay extends fc.Arbitrary<infer T> ? T : never;

function dayOf(random: RandomDay) {
  const shift: ShiftBounds = {
    start: random.start,
    end: random.start + random.length,
    startPlace: spot(random.startPlace),
    endPlace: spot(random.endPlace),
    breaks: random.breaks.map(({ earliestStart, span, durationSeconds }) => ({
      earliestStart,
      latestEnd: earliestStart + span,
      durationSeconds,
    })),
  };
  const tasks: DayTask[] = random.tasks.map((task, index) => ({
    caseId: `case-${index}`,
    place: spot(task.place),
    durationSeconds: task.durationSeconds,
    windows: task.windows.map(([open, length]) => [open, open + length] as const),
  }));
  return { shift, tasks, travel: matrixTravel(random.matrix) };
}

describe('Property: daySchedule against a brute force', () => {
  it('finds a day exactly when some placement of the breaks works, and the day it returns is valid', () => {
    fc.assert(
      fc.property(randomDay, (random) => {
        // Prepare
        const { shift, tasks, travel } = dayOf(random);

        // Act
        const schedule = daySchedule(shift, tasks, travel);
        const brute = checkTourFeasible({ shift, stops: tasks, travel });

        // Assess: same verdict; the returned times are those of a feasible placement, simulated apart
        expect(schedule !== undefined).toBe(brute.feasible);
        if (!schedule) return;
        const replayed = checkTourFeasible({
          shift,
          stops: tasks,
          travel,
          breakGaps: schedule.breaks.map((taken) => taken.gap),
        });
        expect(replayed.feasible).toBe(true);
        expect(replayed.schedule).toEqual({
          stops: schedule.tasks,
          breaks: schedule.breaks,
          endArrival: schedule.endArrival,
        });
      }),
      { numRuns: 5000 },
    );
  });
});

/** A break's window as planning-problem.ts gives it to the optimizer: its starts, within the hours. */
const breakWindow = (shift: ShiftBounds, b: DayBreak) =>
  [Math.max(b.earliestStart, shift.start), Math.min(b.latestEnd, shift.end) - b.durationSeconds] as const;

/** The random day as a VROOM document of one vehicle, places as matrix indices. */
function vroomOf(random: RandomDay) {
  const { shift, tasks } = dayOf(random);
  const vehicle = {
    id: 1,
    start_index: random.startPlace,
    end_index: random.endPlace,
    time_window: [shift.start, shift.end],
    breaks: shift.breaks.map((b, index) => ({
      id: index + 1,
      time_windows: [breakWindow(shift, b)],
      service: b.durationSeconds,
    })),
  };
  const jobs = tasks.map((task, index) => ({
    id: index + 1,
    location_index: task.place.latitude,
    service: task.durationSeconds,
    ...(task.windows.length > 0 ? { time_windows: task.windows.map(([a, b]) => [a, b]) } : {}),
  }));
  return { vehicles: [vehicle], jobs, matrices: { car: { durations: random.matrix } } };
}

describe('Property: daySchedule against the optimizer', () => {
  // planning-problem.ts leaves out a break that cannot be taken within the hours: not compared here
  const fits = (random: RandomDay) => {
    const { shift } = dayOf(random);
    return shift.breaks.every((b) => {
      const [open, close] = breakWindow(shift, b);
      return open <= close;
    });
  };

  it("accepts every route the optimizer plans, in the optimizer's order", () => {
    fc.assert(
      fc.property(randomDay.filter(fits), fc.integer({ min: 1, max: 1000 }), (random, seed) => {
        // Prepare
        const input = vroomOf(random);
        const { shift, tasks, travel } = dayOf(random);
        let output: ReturnType<typeof solve>;
        try {
          output = solve(input, { iterations: 200, timeLimit: 5, seed });
        } catch {
          return; // breaks that cannot fit in the hours: the optimizer refuses the vehicle
        }

        // Act / Assess
        for (const route of output.routes) {
          const order = route.steps.filter((step) => step.type === 'job').map((step) => tasks[step.id! - 1]!);
          expect(daySchedule(shift, order, travel)).toBeDefined();
        }
      }),
      { numRuns: 300 },
    );
  });

  it("gives days the optimizer's own checker accepts, breaks where the schedule puts them", () => {
    fc.assert(
      fc.property(randomDay.filter(fits), (random) => {
        // Prepare
        const input = vroomOf(random);
        const { shift, tasks, travel } = dayOf(random);

        // Act
        const schedule = daySchedule(shift, tasks, travel);

        // Assess
        if (!schedule) return;
        const stops: Stop[] = [];
        for (let gap = 0; gap <= tasks.length; gap++) {
          const here = schedule.breaks
            .map((taken, index) => ({ ...taken, index }))
            .filter((taken) => taken.gap === gap)
            .sort((a, b) => a.start - b.start);
          for (const { index } of here) stops.push({ kind: 'break', brk: input.vehicles[0]!.breaks[index] });
          if (gap < tasks.length) stops.push({ kind: 'job', job: input.jobs[gap] });
        }
        expect(simulate(input, input.vehicles[0], stops)).toMatchObject({ feasible: true });
      }),
      { numRuns: 1000 },
    );
  });
});
