/**
 * `npm run bench:scheduling` (issue 27): a fresh service; through its API a workspace with ten
 * technicians (three skills) and their shifts, then
 *
 * 1. a run of 200 cases (skills, start windows) and 10 shifts with time_limit_seconds 10: the time
 *    from POST to SUCCEEDED (goal ≤ 15 s), and the plan's travel against a greedy dispatcher that
 *    gives each case, in the order their windows open, to the nearest skilled technician who can
 *    still take it at the end of their day (goal: ≥ 20 % less travel, no more cases left out);
 * 2. 500 cases planned over five days (a run per day, applied: PLANNED tours, scheduled starts),
 *    then the slots of one new case over those days: p50 of 20 requests (goal ≤ 300 ms);
 * 3. (issue 33) a run of 1,000 cases on 100 shifts with time_limit_seconds 10, from POST to APPLIED
 *    (goal ≤ 60 s on the local stack): the solve, the plan stored in parts, the apply in the
 *    background (1,100 record writes, each with its journal entry);
 * 4. (issue 33) 20 concurrent bookings of 20 new cases into one day, each into the best slot the
 *    slot search offered it (so most race for the same room): 0 double bookings (no case on two
 *    open tours, every tour of the day feasible as written, checked independently), p50 of the
 *    bookings' answers ≤ 300 ms.
 *
 * Travel is the local model for both (great-circle × 1.3 at 40 km/h), so the distances compare.
 * Prints a table of figures.
 */
import { parseArgs } from 'node:util';
import { type SlotShift, type SlotTask, scheduleOf } from '../shared/domain/scheduling/slot-search.ts';
import { detourFactor, greatCircleMetres, type Place } from '../shared/domain/scheduling/travel.ts';
import { checkTourFeasible, tourAsWritten } from '../test/support/tour-feasibility.ts';
import { startSeededService } from './support/seeded-service.ts';

const { values } = parseArgs({
  options: {
    cases: { type: 'string', default: '200' },
    'planned-cases': { type: 'string', default: '500' },
    samples: { type: 'string', default: '20' },
    'apply-cases': { type: 'string', default: '1000' },
    'apply-shifts': { type: 'string', default: '100' },
    bookings: { type: 'string', default: '20' },
    /** Only the bookings (set up, then 4.): for working on them. */
    'bookings-only': { type: 'boolean', default: false },
  },
});
const applyCases = Number(values['apply-cases']);
const applyShifts = Number(values['apply-shifts']);
const bookingCount = Number(values.bookings);
const caseCount = Number(values.cases);
const plannedCount = Number(values['planned-cases']);
const samples = Number(values.samples);
const technicianCount = 10;
const plannedDays = 5;

const client = { client_id: 'scheduling-bench', client_secret: 'scheduling-bench-secret' };
const bench = await startSeededService('scheduling', [{ name: 'Scheduling bench', clients: [client] }]);
const { service } = bench;
const token = await bench.token(client);

async function api<T = any>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${service.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** A small deterministic generator (mulberry32): the same data every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
const next = random(27);
const centre = { latitude: 52.52, longitude: 13.405 };
/** A place up to ~12 km from the centre. */
function around(): Place {
  const distance = 0.11 * Math.sqrt(next());
  const angle = next() * 2 * Math.PI;
  return {
    latitude: Math.round((centre.latitude + distance * 0.62 * Math.sin(angle)) * 1e5) / 1e5,
    longitude: Math.round((centre.longitude + distance * Math.cos(angle)) * 1e5) / 1e5,
  };
}
const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;

const firstDay = Date.UTC(2031, 2, 10);
const dayStart = (offset: number) => firstDay + offset * 86_400_000;
const at = (offset: number, hours: number) => new Date(dayStart(offset) + hours * 3_600_000).toISOString();
const seconds = (instant: string) => Date.parse(instant) / 1000;

interface Technician {
  id: string;
  home: Place;
  skillIds: string[];
}

async function inBatches<T, R>(
  items: readonly T[],
  size: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size)
    out.push(...(await Promise.all(items.slice(i, i + size).map(work))));
  return out;
}

async function setUp(): Promise<{ technicians: Technician[]; skills: string[] }> {
  const skills = await Promise.all(
    ['Gas', 'Electrical', 'Heat pump'].map(
      async (name) => (await api('POST', '/api/v2/skills', { name })).id as string,
    ),
  );
  return { technicians: await createTechnicians(technicianCount, skills, 'tech'), skills };
}

async function createTechnicians(
  count: number,
  skills: readonly string[],
  prefix: string,
): Promise<Technician[]> {
  const roles = await api('GET', '/api/v2/roles');
  const technicianRole = roles.items.find((role: { name: string }) => role.name === 'technician').id;
  return inBatches([...Array(count).keys()], 5, async (n) => {
    const user = await api('POST', '/api/v2/users', {
      email: `${prefix}-${n}@bench.test`,
      firstname: 'Tech',
      lastname: String(n),
      role_ids: [technicianRole],
    });
    // Everyone offers one skill, half a second one; the first skill is common.
    const own = [skills[n % 3] as string, ...(n % 2 === 0 ? [skills[(n + 1) % 3] as string] : [])];
    await api('PUT', `/api/v2/users/${user.id}/skills`, { skill_ids: own, lock_version: user.lock_version });
    return { id: user.id as string, home: around(), skillIds: own };
  });
}

async function createShifts(technicians: readonly Technician[], day: number) {
  return inBatches(technicians, 5, async (technician) =>
    api('POST', '/api/v2/shifts', {
      user_id: technician.id,
      start: at(day, 7),
      end: at(day, 17),
      start_location: technician.home,
      breaks: [{ earliest_start: at(day, 11), latest_end: at(day, 13.5), duration: 'PT30M' }],
    }),
  );
}

interface BenchCase {
  id: string;
  place: Place;
  minutes: number;
  skillIds: string[];
  window: [string, string];
}

const windows: ReadonlyArray<[number, number]> = [
  [7, 11],
  [10, 14],
  [13, 16],
  [7, 16],
];

async function createCases(count: number, day: number, skills: readonly string[]): Promise<BenchCase[]> {
  const specs = Array.from({ length: count }, () => {
    const [open, close] = pick(windows);
    const skill = next() < 0.5 ? [pick(skills)] : [];
    return {
      place: around(),
      minutes: pick([15, 20, 20, 30, 30]),
      skillIds: skill,
      window: [at(day, open), at(day, close)] as [string, string],
    };
  });
  return inBatches(specs, 10, async (spec) => {
    const created = await api('POST', '/api/v2/cases', {
      title: 'Bench visit',
      location: spec.place,
      duration: `PT${spec.minutes}M`,
      ...(spec.skillIds.length > 0 ? { required_skill_ids: spec.skillIds } : {}),
      time_windows: [{ start: spec.window[0], end: spec.window[1] }],
    });
    return { ...spec, id: created.id as string };
  });
}

/** POST a run and wait for SUCCEEDED; a run that FAILED (a loaded machine: DynamoDB Local's deadlines) is retried once. */
async function runToSuccess(
  body: Record<string, unknown>,
  retries = 1,
): Promise<{ run: any; seconds: number }> {
  const t0 = performance.now();
  const created = await api('POST', '/api/v2/scheduling/optimization-runs', body);
  for (;;) {
    const run = await api('GET', `/api/v2/scheduling/optimization-runs/${created.id}`);
    if (run.status === 'SUCCEEDED') return { run, seconds: (performance.now() - t0) / 1000 };
    if (run.status === 'FAILED' && retries > 0) {
      console.log(`run FAILED (${run.failure_code}: ${run.failure_reason}); once more`);
      return runToSuccess(body, retries - 1);
    }
    if (run.status === 'FAILED' || run.status === 'CANCELLED') {
      throw new Error(`run ${run.status}: ${JSON.stringify(run)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Applies a SUCCEEDED run (background work) and waits until it is APPLIED; the seconds it took. */
async function applied(runId: string): Promise<number> {
  const t0 = performance.now();
  await api('POST', `/api/v2/scheduling/optimization-runs/${runId}/apply`);
  for (;;) {
    const run = await api('GET', `/api/v2/scheduling/optimization-runs/${runId}`);
    const status = run.application?.status;
    if (status === 'APPLIED') return (performance.now() - t0) / 1000;
    if (status === 'CONFLICT' || status === 'FAILED')
      throw new Error(`apply ${status}: ${JSON.stringify(run.application)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The local travel model, seconds and metres (shared/domain/scheduling/travel.ts). */
const metres = (a: Place, b: Place) => greatCircleMetres(a, b) * detourFactor;
const travelSeconds = (a: Place, b: Place) => Math.round(metres(a, b) / (40_000 / 3600));

/**
 * The greedy dispatcher: cases in the order their windows open (then the longer first), each to
 * the nearest skilled technician (from where their day has got to) whose day still works with it
 * appended: windows, break, home by the shift's end. No look-ahead, no reordering.
 */
function greedy(cases: readonly BenchCase[], technicians: readonly Technician[], day: number) {
  const routes = technicians.map((technician) => ({
    shift: {
      id: technician.id,
      userId: technician.id,
      start: seconds(at(day, 7)),
      end: seconds(at(day, 17)),
      startPlace: technician.home,
      endPlace: technician.home,
      breaks: [
        { earliestStart: seconds(at(day, 11)), latestEnd: seconds(at(day, 13.5)), durationSeconds: 1800 },
      ],
      skillIds: technician.skillIds,
      stops: [],
    } as SlotShift,
    tasks: [] as SlotTask[],
  }));
  const order = [...cases].sort((a, b) => a.window[0].localeCompare(b.window[0]) || b.minutes - a.minutes);
  let unassigned = 0;
  for (const work of order) {
    const task: SlotTask = {
      caseId: work.id,
      place: work.place,
      durationSeconds: work.minutes * 60,
      windows: [[seconds(work.window[0]), seconds(work.window[1])]],
    };
    const last = (route: (typeof routes)[number]) => route.tasks.at(-1)?.place ?? route.shift.startPlace;
    const nearest = routes
      .filter((route) => work.skillIds.every((skill) => route.shift.skillIds.includes(skill)))
      .sort((a, b) => travelSeconds(last(a), work.place) - travelSeconds(last(b), work.place));
    const route = nearest.find((candidate) =>
      scheduleOf(candidate.shift, [...candidate.tasks, task], travelSeconds),
    );
    if (route) route.tasks.push(task);
    else unassigned++;
  }
  let distance = 0;
  let driving = 0;
  for (const route of routes) {
    if (route.tasks.length === 0) continue;
    const places = [route.shift.startPlace, ...route.tasks.map((task) => task.place), route.shift.endPlace];
    for (let i = 1; i < places.length; i++) {
      distance += metres(places[i - 1] as Place, places[i] as Place);
      driving += travelSeconds(places[i - 1] as Place, places[i] as Place);
    }
  }
  return { assigned: cases.length - unassigned, unassigned, distance: Math.round(distance), driving };
}

const durationSeconds = (iso: string) => {
  const match = /^PT(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?$/.exec(iso);
  return Number(match?.[1] ?? 0) * 3600 + Number(match?.[2] ?? 0) * 60 + Number(match?.[3] ?? 0);
};
const km = (m: number) => `${(m / 1000).toFixed(1)} km`;
const hm = (s: number) =>
  `${Math.floor(s / 3600)} h ${String(Math.round((s % 3600) / 60)).padStart(2, '0')} min`;

/** Books a case into a slot; the answer and how long it took. */
async function book(caseId: string, slot: { shift_id: string; start: string; end: string }) {
  const s0 = performance.now();
  const response = await fetch(`${service.baseUrl}/api/v2/cases/${caseId}/book`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ shift_id: slot.shift_id, start: slot.start, end: slot.end }),
  });
  await response.text();
  return { ms: performance.now() - s0, response };
}

/**
 * A day of `technicians` with some work booked already; `bookingCount` new cases, each asks for its
 * best slot, then all are booked at once. A double booking: a case on two open tours, or a tour of
 * the day that is not feasible as written (each stop at its scheduled_start), checked independently.
 */
async function bookingRace(technicians: readonly Technician[], skills: readonly string[]) {
  const day = plannedDays + 4;
  const shifts = await createShifts(technicians, day);
  const cases = await createCases(bookingCount, day, skills);
  const slots = await Promise.all(
    cases.map(async (work) => {
      const answer = await api(
        'GET',
        `/api/v2/scheduling/slots?case_id=${work.id}&from=${at(day, 7)}&to=${at(day, 17)}&limit=1`,
      );
      return answer.items[0] as { shift_id: string; start: string; end: string } | undefined;
    }),
  );
  // One at a time first (a baseline without contention): a few extra cases, each into its best slot.
  const alone: number[] = [];
  for (const work of await createCases(5, day, skills)) {
    const answer = await api(
      'GET',
      `/api/v2/scheduling/slots?case_id=${work.id}&from=${at(day, 7)}&to=${at(day, 17)}&limit=1`,
    );
    const slot = answer.items[0];
    if (!slot) continue;
    const { ms, response } = await book(work.id, slot);
    alone.push(ms);
    if (process.env.FSM_BENCH_VERBOSE) {
      console.log(
        response.status,
        response.headers.get('x-dynamodb-calls'),
        response.headers.get('x-dynamodb-ms'),
      );
    }
  }
  alone.sort((a, b) => a - b);
  const times: number[] = [];
  const statuses = await Promise.all(
    cases.map(async (work, index) => {
      const slot = slots[index];
      if (!slot) return 0;
      const { ms, response } = await book(work.id, slot);
      times.push(ms);
      return response.status;
    }),
  );
  const tours = (
    await api(
      'GET',
      `/api/v2/tours?date_from=${at(day, 0).slice(0, 10)}&date_to=${at(day, 0).slice(0, 10)}&size=100`,
    )
  ).items;
  const stopIds = tours.flatMap((tour: any) => tour.stops.map((stop: any) => stop.case_id as string));
  let doubles = stopIds.length - new Set(stopIds).size;
  const shiftOf = new Map(shifts.map((shift: any) => [shift.id, shift]));
  for (const tour of tours) {
    const shift = shiftOf.get(tour.shift_id);
    if (!shift || tour.stops.length === 0) continue;
    const records = await Promise.all(
      tour.stops.map((stop: any) => api('GET', `/api/v2/cases/${stop.case_id}`)),
    );
    const verdict = checkTourFeasible(tourAsWritten(shift, records, travelSeconds));
    if (!verdict.feasible) doubles++;
  }
  times.sort((a, b) => a - b);
  const q = (fraction: number) => times[Math.min(times.length - 1, Math.floor(fraction * times.length))] ?? 0;
  return {
    booked: statuses.filter((status) => status === 200).length,
    refused: statuses.filter((status) => status === 409).length,
    doubles,
    p50: q(0.5),
    p95: q(0.95),
    alone: alone[Math.floor(alone.length / 2)] ?? 0,
  };
}

try {
  const t0 = performance.now();
  const { technicians, skills } = await setUp();
  if (values['bookings-only']) {
    console.log(JSON.stringify(await bookingRace(technicians, skills)));
  } else {
    await allParts(t0, technicians, skills);
  }
} finally {
  await bench.stop();
}

async function allParts(t0: number, technicians: Technician[], skills: string[]): Promise<void> {
  // 1. A day of 200 cases and 10 shifts.
  await createShifts(technicians, 0);
  const cases = await createCases(caseCount, 0, skills);
  console.log(
    `set up ${technicianCount} technicians, ${technicianCount} shifts, ${caseCount} cases in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  const { run, seconds: runSeconds } = await runToSuccess({
    from: at(0, 0),
    to: at(0, 24),
    time_limit_seconds: 10,
  });
  const baseline = greedy(cases, technicians, 0);
  const summary = run.summary as {
    assigned: number;
    unassigned: number;
    distance_m: number;
    travel_duration: string;
  };
  const saving = 1 - summary.distance_m / baseline.distance;
  console.log(
    `run SUCCEEDED in ${runSeconds.toFixed(1)} s: ${summary.assigned} planned, ${km(summary.distance_m)}; greedy ${baseline.assigned} planned, ${km(baseline.distance)}`,
  );

  // 2. 500 cases planned over five days (a run per day, applied), then slots of one more.
  const t1 = performance.now();
  let plannedTotal = 0;
  for (let day = 1; day <= plannedDays; day++) {
    await createShifts(technicians, day);
    await createCases(plannedCount / plannedDays, day, skills);
    const planned = await runToSuccess({ from: at(day, 0), to: at(day, 24), time_limit_seconds: 5 });
    await applied(planned.run.id);
    plannedTotal += planned.run.summary.assigned;
  }
  console.log(
    `planned ${plannedTotal} of ${plannedCount} cases over ${plannedDays} days (runs applied: tours and scheduled starts) in ${((performance.now() - t1) / 1000).toFixed(1)} s`,
  );
  const extra = await api('POST', '/api/v2/cases', {
    title: 'Slot bench',
    location: around(),
    duration: 'PT30M',
    required_skill_ids: [skills[0]],
  });
  const query = `case_id=${extra.id}&from=${at(1, 0)}&to=${at(plannedDays + 1, 0)}&limit=10`;
  const times: number[] = [];
  let offered = 0;
  for (let i = 0; i < samples + 2; i++) {
    const s0 = performance.now();
    const answer = await api('GET', `/api/v2/scheduling/slots?${query}`);
    if (i >= 2) times.push(performance.now() - s0);
    offered = answer.items.length;
  }
  times.sort((a, b) => a - b);
  const p = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;

  // 3. 1,000 cases on 100 shifts, from POST to APPLIED.
  const bigDay = plannedDays + 2;
  const crew = await createTechnicians(applyShifts, skills, 'crew');
  const bigShifts = await createShifts(crew, bigDay);
  const bigCases = await createCases(applyCases, bigDay, skills);
  const t3 = performance.now();
  const big = await runToSuccess({
    from: at(bigDay, 0),
    to: at(bigDay, 24),
    case_ids: bigCases.map((work) => work.id),
    shift_ids: bigShifts.map((shift: { id: string }) => shift.id),
    time_limit_seconds: 10,
  });
  const solvedSeconds = (performance.now() - t3) / 1000;
  const applySeconds = await applied(big.run.id);
  const bigSeconds = (performance.now() - t3) / 1000;
  console.log(
    `run of ${applyCases} cases on ${applyShifts} shifts: SUCCEEDED after ${solvedSeconds.toFixed(1)} s (${big.run.summary.assigned} planned), APPLIED ${applySeconds.toFixed(1)} s later`,
  );

  // 4. Concurrent bookings into one day.
  const booking = await bookingRace(technicians, skills);

  const rows: Array<[string, string, string]> = [
    ['run: POST → SUCCEEDED (10 s limit)', `${runSeconds.toFixed(1)} s`, '≤ 15 s'],
    ['run: cases planned / left out', `${summary.assigned} / ${summary.unassigned}`, ''],
    [
      'greedy: cases planned / left out',
      `${baseline.assigned} / ${baseline.unassigned}`,
      'run leaves out no more',
    ],
    ['run: travel', `${km(summary.distance_m)}, ${hm(durationSeconds(summary.travel_duration))}`, ''],
    ['greedy: travel', `${km(baseline.distance)}, ${hm(baseline.driving)}`, ''],
    ['run vs greedy: less travel', `${(saving * 100).toFixed(1)} %`, '≥ 20 %'],
    [`slots among ${plannedTotal} planned: p50`, `${p(0.5).toFixed(0)} ms`, '≤ 300 ms'],
    ['slots: p95 / slots offered', `${p(0.95).toFixed(0)} ms / ${offered}`, ''],
    [
      `run of ${applyCases} cases, ${applyShifts} shifts: POST → APPLIED`,
      `${bigSeconds.toFixed(1)} s`,
      '≤ 60 s',
    ],
    ['  of which the apply (202 → APPLIED)', `${applySeconds.toFixed(1)} s`, ''],
    [`${bookingCount} concurrent bookings: booked / 409`, `${booking.booked} / ${booking.refused}`, ''],
    ['bookings: double bookings', `${booking.doubles}`, '0'],
    [
      'bookings: p50 / p95 of the answers',
      `${booking.p50.toFixed(0)} ms / ${booking.p95.toFixed(0)} ms`,
      'p50 ≤ 300 ms',
    ],
    ['a booking alone (no contention): p50', `${booking.alone.toFixed(0)} ms`, ''],
  ];
  const width = Math.max(...rows.map((row) => row[0].length));
  console.log(
    `\nscheduling bench: ${caseCount} cases, ${technicianCount} shifts (great-circle travel); slots ${samples} requests\n`,
  );
  for (const [name, figure, goal] of rows)
    console.log(`  ${name.padEnd(width)}  ${figure.padStart(22)}  ${goal}`);
  const met =
    runSeconds <= 15 &&
    saving >= 0.2 &&
    summary.unassigned <= baseline.unassigned &&
    p(0.5) <= 300 &&
    bigSeconds <= 60 &&
    booking.doubles === 0 &&
    booking.p50 <= 300;
  console.log(`\n  goals ${met ? 'met' : 'NOT met'}`);
}
