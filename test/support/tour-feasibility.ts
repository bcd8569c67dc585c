/**
 * An independent feasibility checker for the tests: is a tour (a shift's stops in driving order)
 * feasible with the shift's breaks placed somewhere? Written apart from the service's day
 * schedule (shared/domain/scheduling/day-schedule.ts) and sharing no code with it, by brute force:
 * every assignment of the breaks to the gaps between stops, each simulated directly. So a bug
 * there cannot hide itself here. Meant for small tours (≤ 12 stops, ≤ 2 breaks: 169 assignments).
 *
 * The rule (docs/scheduling.md, "Appointment slots"; the optimizer's, shared/optimizer/README.md):
 * - the technician leaves the start place at the shift's start at the earliest;
 * - a gap (start place or a stop, to the next stop or the end place) left at t with travel d and
 *   breaks b1..bk: each break starts at max(when the previous one ended (t at first), its earliest
 *   start) and must end by its latest end; the next place is reached at max(t + d + Σ durations,
 *   end of bk): waiting for a break's window is driving time;
 * - a stop starts at the first instant ≥ its arrival inside one of its windows (none: any time);
 * - every break is taken once, and the end place is reached by the shift's end.
 * Break order: `optimizer` (the default) only accepts the breaks in the order the optimizer keeps
 * them along a route (by earliest start, not before the shift's start, then as given), as the
 * service does; `any` tries every order within every gap (what is physically possible).
 */

type Second = number;

export interface TourBreak {
  earliestStart: Second;
  latestEnd: Second;
  durationSeconds: number;
}

export interface TourShift<P> {
  start: Second;
  end: Second;
  startPlace: P;
  endPlace: P;
  breaks: readonly TourBreak[];
}

export interface TourStop<P> {
  place: P;
  durationSeconds: number;
  windows: ReadonlyArray<readonly [Second, Second]>;
}

export interface TourCheck<P> {
  shift: TourShift<P>;
  stops: readonly TourStop<P>[];
  travel: (from: P, to: P) => number;
  breakOrder?: 'optimizer' | 'any';
  /** Check only this placement: the gap (index of the stop it precedes, stops.length: the end) of each break. */
  breakGaps?: readonly number[];
}

export interface TourTimes {
  stops: Array<{ arrival: Second; start: Second }>;
  /** In the order of the shift's breaks. */
  breaks: Array<{ start: Second; end: Second; gap: number }>;
  endArrival: Second;
}

export interface TourVerdict {
  feasible: boolean;
  /** Why not, from the placement that got furthest into the day. */
  reason?: string;
  /** The earliest times of the first feasible placement found. */
  schedule?: TourTimes;
}

type Outcome = { times: TourTimes } | { failedAt: number; reason: string };

/** Simulates one placement: `sequence[g]` lists the breaks (by index) taken in gap g, in order. */
function simulate<P>(check: TourCheck<P>, sequence: readonly number[][]): Outcome {
  const { shift, stops, travel } = check;
  const times: TourTimes = { stops: [], breaks: [], endArrival: 0 };
  let clock = shift.start;
  let at = shift.startPlace;
  for (let gap = 0; gap <= stops.length; gap++) {
    const stop = stops[gap];
    const destination = stop ? stop.place : shift.endPlace;
    let free = clock;
    let resting = 0;
    for (const index of sequence[gap] ?? []) {
      const pause = shift.breaks[index] as TourBreak;
      const start = Math.max(free, pause.earliestStart);
      if (start + pause.durationSeconds > pause.latestEnd) {
        return {
          failedAt: gap,
          reason: `break ${index} before ${stop ? `stop ${gap}` : 'the end'} would end at ${start + pause.durationSeconds}, after its latest end ${pause.latestEnd}`,
        };
      }
      times.breaks[index] = { start, end: start + pause.durationSeconds, gap };
      free = start + pause.durationSeconds;
      resting += pause.durationSeconds;
    }
    const arrival = Math.max(clock + travel(at, destination) + resting, free);
    if (!stop) {
      if (arrival > shift.end) {
        return {
          failedAt: gap,
          reason: `the end place is reached at ${arrival}, after the shift's end ${shift.end}`,
        };
      }
      times.endArrival = arrival;
      return { times };
    }
    const opens = stop.windows
      .filter(([, close]) => close >= arrival)
      .map(([open]) => Math.max(open, arrival));
    if (stop.windows.length > 0 && opens.length === 0) {
      return { failedAt: gap, reason: `stop ${gap} is reached at ${arrival}, after its windows close` };
    }
    const start = stop.windows.length === 0 ? arrival : Math.min(...opens);
    times.stops.push({ arrival, start });
    clock = start + stop.durationSeconds;
    at = destination;
  }
  throw new Error('tour-feasibility: the last gap returns');
}

/** Every way to give each break a gap (gaps^breaks of them). */
function* assignments(breaks: number, gaps: number): Generator<number[]> {
  const current = new Array<number>(breaks).fill(0);
  while (true) {
    yield [...current];
    let digit = 0;
    while (digit < breaks && current[digit] === gaps - 1) current[digit++] = 0;
    if (digit === breaks) return;
    current[digit] = (current[digit] as number) + 1;
  }
}

function* permutations(items: readonly number[]): Generator<number[]> {
  if (items.length <= 1) {
    yield [...items];
    return;
  }
  for (let i = 0; i < items.length; i++) {
    const rest = [...items.slice(0, i), ...items.slice(i + 1)];
    for (const tail of permutations(rest)) yield [items[i] as number, ...tail];
  }
}

/** Every order of the breaks within each gap (the product over gaps). */
function* orderings(groups: readonly number[][]): Generator<number[][]> {
  if (groups.length === 0) {
    yield [];
    return;
  }
  const [first, ...others] = groups;
  for (const head of permutations(first as number[])) {
    for (const tail of orderings(others)) yield [head, ...tail];
  }
}

/** The optimizer's rank of each break along a route. */
function ranks(shift: TourShift<unknown>): number[] {
  const keyed = shift.breaks.map((pause, index) => ({
    index,
    key: Math.max(pause.earliestStart, shift.start),
  }));
  keyed.sort((a, b) => (a.key === b.key ? a.index - b.index : a.key - b.key));
  const rank = new Array<number>(keyed.length);
  keyed.forEach(({ index }, position) => {
    rank[index] = position;
  });
  return rank;
}

function sequencesOf<P>(check: TourCheck<P>, gapOf: readonly number[]): number[][][] {
  const gaps = check.stops.length + 1;
  const groups: number[][] = Array.from({ length: gaps }, () => []);
  gapOf.forEach((gap, index) => {
    groups[gap]?.push(index);
  });
  if (check.breakOrder === 'any') return [...orderings(groups)];
  const rank = ranks(check.shift);
  const ordered = groups.map((group) => [...group].sort((a, b) => (rank[a] as number) - (rank[b] as number)));
  const along = ordered.flat();
  const inOrder = along.every(
    (index, i) => i === 0 || (rank[along[i - 1] as number] as number) < (rank[index] as number),
  );
  return inOrder ? [ordered] : [];
}

export function checkTourFeasible<P>(check: TourCheck<P>): TourVerdict {
  const gaps = check.stops.length + 1;
  const k = check.shift.breaks.length;
  const placements = check.breakGaps ? [[...check.breakGaps]] : assignments(k, gaps);
  let furthest: { failedAt: number; reason: string } | undefined;
  for (const gapOf of placements) {
    if (gapOf.length !== k || gapOf.some((gap) => gap < 0 || gap >= gaps)) {
      return { feasible: false, reason: `break gaps ${JSON.stringify(gapOf)} do not name a gap per break` };
    }
    const sequences = sequencesOf(check, gapOf);
    if (sequences.length === 0 && check.breakGaps) {
      return { feasible: false, reason: 'the breaks are not in the order the optimizer keeps them' };
    }
    for (const sequence of sequences) {
      const outcome = simulate(check, sequence);
      if ('times' in outcome) return { feasible: true, schedule: outcome.times };
      if (!furthest || outcome.failedAt > furthest.failedAt) furthest = outcome;
    }
  }
  return { feasible: false, reason: furthest?.reason ?? 'no placement of the breaks to try' };
}

interface PlaceRecord {
  latitude: number;
  longitude: number;
}

/**
 * A tour as the service's records show it (a shift and the cases of its stops, in order, as the API
 * answers them), each stop fixed at its case's `scheduled_start`: feasible means the day written
 * can be driven as written.
 */
export function tourAsWritten(
  shift: {
    start: string;
    end: string;
    start_location: PlaceRecord;
    end_location: PlaceRecord;
    breaks: ReadonlyArray<{ earliest_start: string; latest_end: string; duration: string }>;
  },
  cases: ReadonlyArray<{ location?: PlaceRecord; duration?: string; scheduled_start?: string }>,
  travel: (from: PlaceRecord, to: PlaceRecord) => number,
): TourCheck<PlaceRecord> {
  const at = (instant: string | undefined) => Date.parse(instant ?? '') / 1000;
  return {
    shift: {
      start: at(shift.start),
      end: at(shift.end),
      startPlace: shift.start_location,
      endPlace: shift.end_location,
      breaks: shift.breaks.map((pause) => ({
        earliestStart: at(pause.earliest_start),
        latestEnd: at(pause.latest_end),
        durationSeconds: secondsOf(pause.duration),
      })),
    },
    stops: cases.map((record) => ({
      place: record.location as PlaceRecord,
      durationSeconds: secondsOf(record.duration ?? 'PT1H'),
      windows: [[at(record.scheduled_start), at(record.scheduled_start)]],
    })),
    travel,
  };
}

/** Seconds of an ISO 8601 duration of hours, minutes and seconds (`PT1H30M`). */
function secondsOf(duration: string): number {
  const match = /^PT(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?$/.exec(duration);
  return Number(match?.[1] ?? 0) * 3600 + Number(match?.[2] ?? 0) * 60 + Number(match?.[3] ?? 0);
}
