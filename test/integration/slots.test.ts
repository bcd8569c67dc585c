/**
 * Appointment slots over HTTP, in the Plan Works workspace: validation with `#/query/<name>`
 * pointers, 404 and isolation, grants; every slot offered is feasible (re-checked against the
 * shift's tour, and the best one confirmed by the optimizer planning the tour with the case in
 * it); promised visits are never moved; best first. Each test books a day of its own in a far-off
 * year (apart from the optimization runs' years), so shifts of one test never meet another's.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { type SlotShift, type SlotTask, scheduleOf } from '../../shared/domain/scheduling/slot-search.ts';
import { greatCircleMetres, type Place } from '../../shared/domain/scheduling/travel.ts';
import { parseIsoDuration } from '../../shared/schema/duration.ts';
import { call, eventually, problemType, tokenFor } from '../support/api.ts';
import { createUser } from '../support/users.ts';

const slotsPath = '/api/v2/scheduling/slots';
let admin: string;
let dispatcher: string;
let technician: string;
let beta: string;
const people = { greta: '', gina: '', emil: '' };
let gasSkill: string;
let betaCase: string;

const year = 4000 + Math.floor(Math.random() * 900);
let nextDay = 0;
function freshDay(): number {
  return Date.UTC(year, 0, 1) + nextDay++ * 86_400_000;
}
const at = (day: number, hours: number) => new Date(day + hours * 3_600_000).toISOString();
const depot = { latitude: 52.52, longitude: 13.405 };
const near = (dLat: number, dLon: number) => ({
  latitude: depot.latitude + dLat,
  longitude: depot.longitude + dLon,
});
/** The local travel model (docs/scheduling.md): 1.3 × the great circle at 40 km/h. */
const travel = (a: Place, b: Place) => Math.round((greatCircleMetres(a, b) * 1.3) / (40_000 / 3600));
const seconds = (instant: string) => Date.parse(instant) / 1000;
const durationOf = (value: string) => {
  const parsed = parseIsoDuration(value);
  return 'seconds' in parsed ? parsed.seconds : Number.NaN;
};

beforeAll(async () => {
  [admin, dispatcher, technician, beta] = await Promise.all([
    tokenFor('plan-admin'),
    tokenFor('plan-dispatcher'),
    tokenFor('plan-technician'),
    tokenFor('beta-admin'),
  ]);
  const skill = await call('POST', '/api/v2/skills', {
    token: admin,
    body: { name: `Gas ${randomUUID().slice(0, 6)}` },
  });
  expect(skill.status, skill.text).toBe(201);
  gasSkill = skill.body.id;
  const [greta, gina, emil] = await Promise.all([
    createUser(admin, { firstname: 'Greta', lastname: 'Gas' }),
    createUser(admin, { firstname: 'Gina', lastname: 'Gas' }),
    createUser(admin, { firstname: 'Emil', lastname: 'Electric' }),
  ]);
  Object.assign(people, { greta: greta.id, gina: gina.id, emil: emil.id });
  for (const user of [greta.id, gina.id]) {
    const skills = await call('PUT', `/api/v2/users/${user}/skills`, {
      token: admin,
      body: { skill_ids: [gasSkill] },
    });
    expect(skills.status, skills.text).toBe(200);
  }
  const foreign = await call('POST', '/api/v2/cases', {
    token: beta,
    body: { title: 'Beta visit', location: depot },
  });
  expect(foreign.status, foreign.text).toBe(201);
  betaCase = foreign.body.id;
});

async function createShift(user: string, day: number, overrides: Record<string, unknown> = {}) {
  const response = await call('POST', '/api/v2/shifts', {
    token: dispatcher,
    body: {
      user_id: user,
      start: at(day, 8),
      end: at(day, 16),
      start_location: depot,
      breaks: [{ earliest_start: at(day, 11.5), latest_end: at(day, 13.5), duration: 'PT30M' }],
      ...overrides,
    },
  });
  expect(response.status, response.text).toBe(201);
  return response.body as Record<string, any>;
}

async function createCase(body: Record<string, unknown> = {}) {
  const response = await call('POST', '/api/v2/cases', {
    token: dispatcher,
    body: {
      title: `Visit ${randomUUID().slice(0, 6)}`,
      location: near(0.01, 0.01),
      duration: 'PT1H',
      ...body,
    },
  });
  expect(response.status, response.text).toBe(201);
  return response.body as Record<string, any>;
}

/** A case promised to `user` at `start` (for `minutes`), with a window of a minute there. */
function booked(user: string, place: Place, start: string, minutes = 60) {
  return createCase({
    location: place,
    duration: `PT${minutes}M`,
    assignee_id: user,
    status: 'SCHEDULED',
    scheduled_start: start,
    scheduled_end: new Date(Date.parse(start) + minutes * 60_000).toISOString(),
    time_windows: [{ start, end: new Date(Date.parse(start) + 60_000).toISOString() }],
  });
}

async function createTour(shift: Record<string, any>, caseIds: string[]) {
  const response = await call('POST', '/api/v2/tours', {
    token: dispatcher,
    body: {
      date: shift.start.slice(0, 10),
      shift_id: shift.id,
      driver_id: shift.user_id,
      stops: caseIds.map((id) => ({ case_id: id })),
    },
  });
  expect(response.status, response.text).toBe(201);
  return response.body as Record<string, any>;
}

function slots(token: string, query: string) {
  return call('GET', `${slotsPath}?${query}`, { token });
}

const pointers = (response: { body: { errors?: Array<{ pointer: string }> } }) =>
  (response.body.errors ?? []).map((error) => error.pointer);

describe('Appointment slots: validation', () => {
  const day = Date.UTC(year, 11, 1);
  const horizon = `from=${at(day, 8)}&to=${at(day, 16)}`;

  it.each([
    { title: 'no case_id', query: () => horizon, pointer: '#/query/case_id' },
    { title: 'a case_id that is no uuid', query: () => `case_id=x&${horizon}`, pointer: '#/query/case_id' },
    { title: 'no from', query: () => `case_id=${randomUUID()}&to=${at(day, 8)}`, pointer: '#/query/from' },
    {
      title: 'to before from',
      query: () => `case_id=${randomUUID()}&from=${at(day, 8)}&to=${at(day, 7)}`,
      pointer: '#/query/to',
    },
    {
      title: 'to equal to from',
      query: () => `case_id=${randomUUID()}&from=${at(day, 8)}&to=${at(day, 8)}`,
      pointer: '#/query/to',
    },
    {
      title: 'a search over 14 days',
      query: () => `case_id=${randomUUID()}&from=${at(day, 0)}&to=${at(day, 14 * 24 + 1)}`,
      pointer: '#/query/to',
    },
    { title: 'limit 0', query: () => `case_id=${randomUUID()}&${horizon}&limit=0`, pointer: '#/query/limit' },
    {
      title: 'limit 51',
      query: () => `case_id=${randomUUID()}&${horizon}&limit=51`,
      pointer: '#/query/limit',
    },
    {
      title: 'a slot of 5 minutes',
      query: () => `case_id=${randomUUID()}&${horizon}&slot_length=PT5M`,
      pointer: '#/query/slot_length',
    },
    {
      title: 'a slot length that is no duration',
      query: () => `case_id=${randomUUID()}&${horizon}&slot_length=2h`,
      pointer: '#/query/slot_length',
    },
    {
      title: 'an unknown parameter',
      query: () => `case_id=${randomUUID()}&${horizon}&size=10`,
      pointer: '#/query/size',
    },
  ])('answers 422 at the parameter for $title', async ({ query, pointer }) => {
    const response = await slots(dispatcher, query());

    expect(response.status, response.text).toBe(422);
    expect(pointers(response)).toEqual([pointer]);
  });

  it('answers 422 at #/query/case_id for a case without a location, or one that is done', async () => {
    const nowhere = await createCase({ location: undefined });
    const done = await createCase({ status: 'DONE' });

    const noPlace = await slots(dispatcher, `case_id=${nowhere.id}&${horizon}`);
    const finished = await slots(dispatcher, `case_id=${done.id}&${horizon}`);

    expect(noPlace.status, noPlace.text).toBe(422);
    expect(noPlace.body.errors).toEqual([
      expect.objectContaining({ pointer: '#/query/case_id', detail: expect.stringContaining('no location') }),
    ]);
    expect(finished.status).toBe(422);
    expect(pointers(finished)).toEqual(['#/query/case_id']);
  });

  it('answers 404 for a case that is not of the workspace', async () => {
    const missing = await slots(dispatcher, `case_id=${randomUUID()}&${horizon}`);
    const foreign = await slots(dispatcher, `case_id=${betaCase}&${horizon}`);
    const own = await createCase();
    const fromBeta = await slots(beta, `case_id=${own.id}&${horizon}`);

    expect(missing.status).toBe(404);
    expect(foreign.status).toBe(404);
    expect(foreign.body.type).toEqual(problemType('not-found'));
    expect(fromBeta.status).toBe(404);
  });

  it('refuses a technician (no scheduling:read)', async () => {
    const work = await createCase();

    const denied = await slots(technician, `case_id=${work.id}&${horizon}`);

    expect(denied.status).toBe(403);
    expect(denied.body.data.required_grants).toEqual(['scheduling:read']);
  });
});

/** The shift's day as the test knows it: its hours, break and the promised stops in order. */
function dayOf(shift: Record<string, any>, stops: Array<Record<string, any>>): SlotShift {
  const task = (work: Record<string, any>): SlotTask => ({
    caseId: work.id,
    place: work.location,
    durationSeconds: durationOf(work.duration),
    windows: [[seconds(work.scheduled_start), seconds(work.scheduled_start)]],
  });
  return {
    id: shift.id,
    userId: shift.user_id,
    start: seconds(shift.start),
    end: seconds(shift.end),
    startPlace: shift.start_location,
    endPlace: shift.end_location,
    breaks: shift.breaks.map((pause: { earliest_start: string; latest_end: string; duration: string }) => ({
      earliestStart: seconds(pause.earliest_start),
      latestEnd: seconds(pause.latest_end),
      durationSeconds: durationOf(pause.duration),
    })),
    skillIds: [gasSkill],
    stops: stops.map(task),
  };
}

/** The least driving the case adds to the day when it starts inside the slot, or undefined if it cannot. */
function leastAdded(day: SlotShift, work: Record<string, any>, slot: Record<string, string>) {
  const task: SlotTask = {
    caseId: work.id,
    place: work.location,
    durationSeconds: 3600,
    windows: [[seconds(slot.start as string), seconds(slot.end as string)]],
  };
  const places = [day.startPlace, ...day.stops.map((stop) => stop.place), day.endPlace];
  let best: number | undefined;
  for (let position = 0; position <= day.stops.length; position++) {
    const tasks = [...day.stops.slice(0, position), task, ...day.stops.slice(position)];
    if (!scheduleOf(day, tasks, travel)) continue;
    const before = places[position] as Place;
    const after = places[position + 1] as Place;
    const added = travel(before, task.place) + travel(task.place, after) - travel(before, after);
    if (best === undefined || added < best) best = added;
  }
  return best;
}

describe('Appointment slots: what is offered', () => {
  it('offers only slots that fit the current tour, never moving a promised visit, best first', async () => {
    // Arrange: Greta's tour has two promised visits (10:00 for two hours next door, 14:00 further
    // out); Gina starts far away; Emil lacks the skill.
    const day = freshDay();
    const [greta, gina] = await Promise.all([
      createShift(people.greta, day),
      createShift(people.gina, day, { start_location: near(0.15, 0.2) }),
      createShift(people.emil, day),
    ]);
    const first = await booked(people.greta, near(0.012, 0.008), at(day, 10), 120);
    const second = await booked(people.greta, near(-0.02, 0.03), at(day, 14));
    await createTour(greta, [first.id, second.id]);
    const work = await createCase({ required_skill_ids: [gasSkill], location: near(0.01, 0.012) });

    // Act
    const response = await slots(
      dispatcher,
      `case_id=${work.id}&from=${at(day, 8)}&to=${at(day, 16)}&slot_length=PT1H&limit=50`,
    );

    // Assess
    expect(response.status, response.text).toBe(200);
    const items = response.body.items as Array<Record<string, any>>;
    expect(items.length).toBeGreaterThan(0);
    expect(new Set(items.map((slot) => slot.shift_id))).toEqual(new Set([greta.id, gina.id]));
    const days = { [greta.id]: dayOf(greta, [first, second]), [gina.id]: dayOf(gina, []) };
    for (const slot of items) {
      expect(slot.user_id).toBe(slot.shift_id === greta.id ? people.greta : people.gina);
      const added = leastAdded(days[slot.shift_id] as SlotShift, work, slot);
      expect(added, `${slot.start} on ${slot.shift_id}`).toBeDefined();
      expect(Date.parse(slot.end) - Date.parse(slot.start)).toBe(3_600_000);
      expect(slot.score).toBe(Math.round(1000 * 0.5 ** ((added as number) / 600)) / 1000);
    }
    // Greta is busy at the promised visit from 10:00 to 12:00: no slot of hers opens then.
    const gretaStarts = items.filter((slot) => slot.shift_id === greta.id).map((slot) => slot.start);
    expect(gretaStarts).not.toContain(at(day, 10));
    expect(gretaStarts).not.toContain(at(day, 11));
    // Best first: least added driving, then earliest; the nearby tour before the far-off start.
    const order = items.map((slot) => [slot.score, -Date.parse(slot.start)] as const);
    const sorted = [...order].sort((a, b) => b[0] - a[0] || b[1] - a[1]);
    expect(order).toEqual(sorted);
    expect(items[0]?.shift_id).toBe(greta.id);
    // Slots never overlap one another: one per window.
    expect(new Set(items.map((slot) => slot.start)).size).toBe(items.length);
  });

  it('offers a best slot that the optimizer plans into the tour with every promise kept', async () => {
    // Arrange
    const day = freshDay();
    const greta = await createShift(people.greta, day, { breaks: [] });
    const visits = [
      await booked(people.greta, near(0.015, -0.01), at(day, 9)),
      await booked(people.greta, near(-0.01, 0.02), at(day, 12)),
    ];
    await createTour(
      greta,
      visits.map((visit) => visit.id),
    );
    const work = await createCase({ required_skill_ids: [gasSkill], location: near(0.005, 0.015) });
    const found = await slots(dispatcher, `case_id=${work.id}&from=${at(day, 8)}&to=${at(day, 16)}&limit=1`);
    expect(found.status, found.text).toBe(200);
    const [best] = found.body.items;
    expect(best).toMatchObject({ shift_id: greta.id, user_id: people.greta });

    // Act: book the case into that slot and let the optimizer plan the shift with it
    const windowed = await call('PATCH', `/api/v2/cases/${work.id}`, {
      token: dispatcher,
      body: { time_windows: [{ start: best.start, end: best.end }], lock_version: work.lock_version },
    });
    expect(windowed.status, windowed.text).toBe(200);
    const created = await call('POST', '/api/v2/scheduling/optimization-runs', {
      token: dispatcher,
      body: {
        from: at(day, 0),
        to: at(day, 24),
        shift_ids: [greta.id],
        case_ids: [work.id, ...visits.map((visit) => visit.id)],
        time_limit_seconds: 1,
      },
    });
    expect(created.status, created.text).toBe(202);
    const run = await eventually(async () => {
      const response = await call('GET', `/api/v2/scheduling/optimization-runs/${created.body.id}`, {
        token: dispatcher,
      });
      expect(['SUCCEEDED', 'FAILED']).toContain(response.body.status);
      return response.body;
    }, 25_000);

    // Assess
    expect(run.status, JSON.stringify(run)).toBe('SUCCEEDED');
    expect(run.result.unassigned).toEqual([]);
    const stops = run.result.routes[0].stops as Array<Record<string, string>>;
    const stop = stops.find((s) => s.case_id === work.id);
    expect(Date.parse(stop?.start ?? '')).toBeGreaterThanOrEqual(Date.parse(best.start));
    expect(Date.parse(stop?.start ?? '')).toBeLessThanOrEqual(Date.parse(best.end));
  }, 40_000);

  it('offers nothing on a shift of another workspace, nor on a day that is over, nor before the current stop of a day under way ends', async () => {
    // Arrange: Greta's tour is on the road, its current stop (IN_PROGRESS) until 12:00; Gina's
    // day is done; Beta has a free shift that day
    const day = freshDay();
    const [greta, gina] = [await createShift(people.greta, day), await createShift(people.gina, day)];
    const current = await booked(people.greta, near(0.005, 0.005), at(day, 8.5), 210);
    const onTheRoad = await createTour(greta, [current.id]);
    const doneTour = await createTour(gina, []);
    for (const [tour, status] of [
      [onTheRoad, 'IN_PROGRESS'],
      [doneTour, 'DONE'],
    ] as const) {
      const moved = await call('PATCH', `/api/v2/tours/${tour.id}`, {
        token: dispatcher,
        body: { status, lock_version: tour.lock_version },
      });
      expect(moved.status, moved.text).toBe(200);
    }
    const working = await call('PATCH', `/api/v2/cases/${current.id}`, {
      token: dispatcher,
      body: { status: 'IN_PROGRESS' },
    });
    expect(working.status, working.text).toBe(200);
    const betaUser = await createUser(beta);
    const betaShift = await call('POST', '/api/v2/shifts', {
      token: beta,
      body: { user_id: betaUser.id, start: at(day, 8), end: at(day, 16), start_location: depot },
    });
    expect(betaShift.status, betaShift.text).toBe(201);
    const work = await createCase();

    // Act
    const response = await slots(dispatcher, `case_id=${work.id}&from=${at(day, 8)}&to=${at(day, 16)}`);

    // Assess: only Greta's shift offers, and only from the end of her current stop on
    expect(response.status, response.text).toBe(200);
    const offered = response.body.items as Array<{ shift_id: string; start: string }>;
    expect(offered.length).toBeGreaterThan(0);
    expect(new Set(offered.map((slot) => slot.shift_id))).toEqual(new Set([greta.id]));
    expect(offered.map((slot) => slot.start).sort()).toEqual([at(day, 12), at(day, 14)]);
  });

  it('answers at most `limit` slots, two-hour windows by default', async () => {
    const day = freshDay();
    await createShift(people.gina, day, { breaks: [] });
    const work = await createCase({ required_skill_ids: [gasSkill] });

    const response = await slots(
      dispatcher,
      `case_id=${work.id}&from=${at(day, 6)}&to=${at(day, 18)}&limit=2`,
    );

    expect(response.status, response.text).toBe(200);
    expect(response.body.items).toHaveLength(2);
    for (const slot of response.body.items) {
      expect(Date.parse(slot.end) - Date.parse(slot.start)).toBe(7_200_000);
      expect(slot.shift_id).toBeDefined();
      expect(slot.added_travel_duration).toMatch(/^PT/);
    }
  });
});
