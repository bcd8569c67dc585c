/**
 * Dispatch you can trust (API-DECISIONS.md), over HTTP, in the Plan Works workspace: one open tour
 * per case and one PLANNED tour per shift (tour writes, and races of them); applying a plan that
 * moves cases, returns the ones it leaves out to NEW and keeps every lock; the default selection of
 * a run; applies racing each other and tour writes; an apply that crashes after any of its writes,
 * finished or undone by the service itself; booking an appointment, and two bookings racing for
 * room for one. Each test plans days of its own in a far-off year (apart from the other files'),
 * and names its cases and shifts, so no run meets another test's work.
 */
import { randomUUID } from 'node:crypto';
import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, eventually, problemType, tokenFor } from '../support/api.ts';
import { directTable } from '../support/direct-table.ts';
import { createUser } from '../support/users.ts';

const runs = '/api/v2/scheduling/optimization-runs';
let admin: string;
let dispatcher: string;
let beta: string;
const people = { anna: '', ben: '', cleo: '' };
/** A skill nobody of the workspace offers. */
let craneSkill: string;
let table: DynamoDBDocumentClient;

const year = 5000 + Math.floor(Math.random() * 900);
let nextDay = 0;
const freshDay = () => Date.UTC(year, 0, 1) + nextDay++ * 86_400_000;
const at = (day: number, hours: number) => new Date(day + hours * 3_600_000).toISOString();
const depot = { latitude: 52.52, longitude: 13.405 };
const near = (dLat: number, dLon: number) => ({
  latitude: depot.latitude + dLat,
  longitude: depot.longitude + dLon,
});
type Json = Record<string, any>;

beforeAll(async () => {
  [admin, dispatcher, beta] = await Promise.all([
    tokenFor('plan-admin'),
    tokenFor('plan-dispatcher'),
    tokenFor('beta-admin'),
  ]);
  const [anna, ben, cleo] = await Promise.all([
    createUser(admin, { firstname: 'Anna', lastname: 'Lock' }),
    createUser(admin, { firstname: 'Ben', lastname: 'Book' }),
    createUser(admin, { firstname: 'Cleo', lastname: 'Crash' }),
  ]);
  Object.assign(people, { anna: anna.id, ben: ben.id, cleo: cleo.id });
  const crane = await call('POST', '/api/v2/skills', {
    token: admin,
    body: { name: `Crane ${randomUUID().slice(0, 6)}` },
  });
  craneSkill = crane.body.id;
  table = directTable();
});

afterAll(() => table.destroy());

async function ok(
  method: string,
  path: string,
  body?: unknown,
  status = method === 'POST' ? 201 : 200,
): Promise<Json> {
  const response = await call(method, path, { token: dispatcher, ...(body === undefined ? {} : { body }) });
  expect(response.status, `${method} ${path}: ${response.text}`).toBe(status);
  return response.body as Json;
}

const createShift = (user: string, day: number, overrides: Json = {}) =>
  ok('POST', '/api/v2/shifts', {
    user_id: user,
    start: at(day, 8),
    end: at(day, 16),
    start_location: depot,
    ...overrides,
  });

/** A case of `day` (its window 08:00–15:00 unless given), near the depot. */
const createCase = (day: number, overrides: Json = {}) =>
  ok('POST', '/api/v2/cases', {
    title: `Job ${randomUUID().slice(0, 6)}`,
    location: near(Math.random() * 0.02 - 0.01, Math.random() * 0.03 - 0.015),
    duration: 'PT45M',
    time_windows: [{ start: at(day, 8), end: at(day, 15) }],
    ...overrides,
  });

const createTour = (day: number, body: Json) =>
  ok('POST', '/api/v2/tours', { date: at(day, 0).slice(0, 10), ...body });
const stopsOf = (ids: readonly string[]) => ids.map((id) => ({ case_id: id }));
const getCase = (id: string) => ok('GET', `/api/v2/cases/${id}`);
const getTour = (id: string) => ok('GET', `/api/v2/tours/${id}`);
const toursOfShift = async (id: string) => (await ok('GET', `/api/v2/tours?shift_id=${id}`)).items as Json[];

/** A SUCCEEDED run over `day` for the named cases and shifts. */
async function solvedRun(day: number, caseIds: string[], shiftIds: string[]): Promise<Json> {
  const created = await ok(
    'POST',
    runs,
    { from: at(day, 0), to: at(day, 24), case_ids: caseIds, shift_ids: shiftIds, time_limit_seconds: 1 },
    202,
  );
  const run = await eventually(async () => {
    const read = await ok('GET', `${runs}/${created.id}`);
    expect(['SUCCEEDED', 'FAILED']).toContain(read.status);
    return read;
  }, 30_000);
  expect(run.status, JSON.stringify(run)).toBe('SUCCEEDED');
  return run;
}

/** The run once its apply ended. */
const applyEnded = (id: string) =>
  eventually(async () => {
    const read = await ok('GET', `${runs}/${id}`);
    expect(['APPLIED', 'CONFLICT', 'FAILED']).toContain(read.application?.status);
    return read;
  }, 40_000);

async function apply(run: Json): Promise<Json> {
  await ok('POST', `${runs}/${run.id}/apply`, undefined, 202);
  return applyEnded(run.id);
}

/** The route of a shift in a run's result. */
const routeOf = (run: Json, shiftId: string) =>
  run.result.routes.find((route: Json) => route.shift_id === shiftId);

/** Every case is on one open tour at most, and every shift has one PLANNED tour at most (the day's tours). */
async function expectDayInvariants(day: number): Promise<void> {
  const date = at(day, 0).slice(0, 10);
  const tours = (await ok('GET', `/api/v2/tours?date_from=${date}&date_to=${date}&size=100`)).items as Json[];
  const open = tours.filter((tour) => tour.status === 'PLANNED' || tour.status === 'IN_PROGRESS');
  const caseIds = open.flatMap((tour) => tour.stops.map((stop: Json) => stop.case_id));
  expect(caseIds.length, 'a case on two open tours').toBe(new Set(caseIds).size);
  const plannedShifts = tours
    .filter((tour) => tour.status === 'PLANNED' && tour.shift_id)
    .map((tour) => tour.shift_id);
  expect(plannedShifts.length, 'a shift with two PLANNED tours').toBe(new Set(plannedShifts).size);
  for (const id of caseIds) {
    const record = await getCase(id);
    if (record.status === 'SCHEDULED') expect(record.assignee_id).toBeDefined();
  }
}

describe('Dispatch: one open tour per case, one PLANNED tour per shift', () => {
  it('answers 409 naming the other tour when a tour write would make a case a stop of a second open tour', async () => {
    const day = freshDay();
    const work = await createCase(day);
    const first = await createTour(day, { stops: stopsOf([work.id]) });

    const second = await call('POST', '/api/v2/tours', {
      token: dispatcher,
      body: { date: first.date, stops: [{ case_id: (await createCase(day)).id }, { case_id: work.id }] },
    });

    expect(second.status, second.text).toBe(409);
    expect(second.body).toMatchObject({
      type: problemType('resource-conflict'),
      data: {
        reason: 'case_on_open_tour',
        tour_id: first.id,
        conflicts: [{ case_id: work.id, tour_id: first.id }],
      },
      errors: [{ pointer: '#/stops/1/case_id' }],
    });
    // A DONE tour holds nothing: the case may go on another; the first one cannot be reopened then.
    await ok('PATCH', `/api/v2/tours/${first.id}`, { status: 'DONE' });
    const other = await createTour(day, { stops: stopsOf([work.id]) });
    const reopened = await call('PATCH', `/api/v2/tours/${first.id}`, {
      token: dispatcher,
      body: { status: 'PLANNED' },
    });
    expect(reopened.status, reopened.text).toBe(409);
    expect(reopened.body.data).toMatchObject({ reason: 'case_on_open_tour', tour_id: other.id });
  });

  it('gives a shift one PLANNED tour at most, also when five creates race (one 201, four 409)', async () => {
    const day = freshDay();
    const shift = await createShift(people.anna, day);

    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        call('POST', '/api/v2/tours', {
          token: dispatcher,
          body: { date: at(day, 0).slice(0, 10), shift_id: shift.id },
        }),
      ),
    );

    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409, 409, 409]);
    const winner = answers.find((answer) => answer.status === 201)?.body;
    for (const lost of answers.filter((answer) => answer.status === 409)) {
      expect(lost.body.data).toMatchObject({ reason: 'shift_has_planned_tour', tour_id: winner.id });
    }
    expect((await toursOfShift(shift.id)).map((tour) => tour.id)).toEqual([winner.id]);
  });

  it('keeps a case on one open tour when two tour writes race to take it', async () => {
    const day = freshDay();
    const work = await createCase(day);
    const [a, b] = [await createTour(day, {}), await createTour(day, {})];

    const answers = await Promise.all(
      [a, b].map((tour) =>
        call('PATCH', `/api/v2/tours/${tour.id}`, { token: dispatcher, body: { stops: stopsOf([work.id]) } }),
      ),
    );

    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    await expectDayInvariants(day);
  });
});

describe('Dispatch: applying a plan', () => {
  it('moves a case off its other PLANNED tour, and returns a case it leaves out to NEW', async () => {
    const day = freshDay();
    const shift = await createShift(people.anna, day);
    const [moved, fresh] = [await createCase(day), await createCase(day)];
    const leftOut = await createCase(day, { required_skill_ids: [craneSkill] });
    // The case the plan moves sits on a PLANNED tour of no shift; the one it leaves out on the shift's.
    const other = await createTour(day, { stops: stopsOf([moved.id]) });
    const own = await createTour(day, {
      shift_id: shift.id,
      driver_id: people.anna,
      stops: stopsOf([leftOut.id]),
    });
    await ok('PATCH', `/api/v2/cases/${leftOut.id}`, {
      status: 'SCHEDULED',
      assignee_id: people.anna,
      scheduled_start: at(day, 9),
      scheduled_end: at(day, 10),
    });
    const run = await solvedRun(day, [moved.id, fresh.id], [shift.id]);
    expect(run.result.unassigned).toEqual([{ case_id: leftOut.id, reason: 'NO_SKILLED_TECHNICIAN' }]);

    const ended = await apply(run);

    expect(ended.application).toMatchObject({ status: 'APPLIED', attempt: 1 });
    const route = routeOf(run, shift.id);
    expect((await getTour(own.id)).stops.map((stop: Json) => stop.case_id)).toEqual(
      route.stops.map((stop: Json) => stop.case_id),
    );
    expect((await getTour(other.id)).stops).toEqual([]);
    const back = await getCase(leftOut.id);
    expect(back.status).toBe('NEW');
    for (const field of ['assignee_id', 'scheduled_start', 'scheduled_end'])
      expect(back[field]).toBeUndefined();
    expect(await getCase(moved.id)).toMatchObject({ status: 'SCHEDULED', assignee_id: people.anna });
    await expectDayInvariants(day);
  }, 60_000);

  it('keeps every lock: a technician, a start, and a lock it cannot keep is left as it is (LOCK_NOT_KEPT)', async () => {
    const day = freshDay();
    const [annas, bens] = [await createShift(people.anna, day), await createShift(people.ben, day)];
    const toBen = await createCase(day, { assignee_id: people.ben, schedule_lock: 'ASSIGNEE' });
    const atTen = await createCase(day, {
      assignee_id: people.anna,
      scheduled_start: at(day, 10),
      scheduled_end: at(day, 10.75),
      status: 'SCHEDULED',
      schedule_lock: 'ASSIGNEE_AND_TIME',
    });
    // Cleo has no shift this day: her lock cannot be kept.
    const toCleo = await createCase(day, { assignee_id: people.cleo, schedule_lock: 'ASSIGNEE' });

    const run = await solvedRun(day, [toBen.id, atTen.id, toCleo.id], [annas.id, bens.id]);
    const ended = await apply(run);

    expect(run.result.unassigned).toEqual([{ case_id: toCleo.id, reason: 'LOCK_NOT_KEPT' }]);
    expect(routeOf(run, bens.id).stops.map((stop: Json) => stop.case_id)).toContain(toBen.id);
    const ten = routeOf(run, annas.id).stops.find((stop: Json) => stop.case_id === atTen.id);
    expect(ten?.start).toBe(at(day, 10));
    expect(ended.application.status).toBe('APPLIED');
    expect(await getCase(atTen.id)).toMatchObject({ assignee_id: people.anna, scheduled_start: at(day, 10) });
    expect(await getCase(toCleo.id)).toMatchObject({ status: 'NEW', lock_version: toCleo.lock_version });
  }, 60_000);

  it('takes NEW cases and SCHEDULED ones starting in the horizon by default, never ON_HOLD nor another day’s; refuses to name an ON_HOLD case', async () => {
    const day = freshDay();
    const shift = await createShift(people.anna, day);
    const fresh = await createCase(day);
    const inHorizon = await createCase(day, {
      status: 'SCHEDULED',
      scheduled_start: at(day, 9),
      scheduled_end: at(day, 9.75),
      assignee_id: people.anna,
    });
    // Windows meet the horizon, but the work is scheduled on the next day: it stays there.
    const nextDays = await createCase(day, {
      status: 'SCHEDULED',
      time_windows: [{ start: at(day, 8), end: at(day, 48) }],
      scheduled_start: at(day, 33),
      scheduled_end: at(day, 33.75),
    });
    const onHold = await createCase(day, { status: 'ON_HOLD' });

    const named = await call('POST', runs, {
      token: dispatcher,
      body: { from: at(day, 0), to: at(day, 24), case_ids: [fresh.id, onHold.id], shift_ids: [shift.id] },
    });
    const created = await ok(
      'POST',
      runs,
      { from: at(day, 0), to: at(day, 24), shift_ids: [shift.id], time_limit_seconds: 1 },
      202,
    );
    const run = await eventually(async () => {
      const read = await ok('GET', `${runs}/${created.id}`);
      expect(read.status).toBe('SUCCEEDED');
      return read;
    }, 30_000);

    expect(named.status, named.text).toBe(422);
    expect(named.body.errors.map((error: Json) => error.pointer)).toEqual(['#/case_ids/1']);
    const seen = new Set([
      ...run.result.routes.flatMap((route: Json) => route.stops.map((stop: Json) => stop.case_id)),
      ...run.result.unassigned.map((entry: Json) => entry.case_id),
    ]);
    expect(seen.has(fresh.id)).toBe(true);
    expect(seen.has(inHorizon.id)).toBe(true);
    expect(seen.has(nextDays.id)).toBe(false);
    expect(seen.has(onHold.id)).toBe(false);
  }, 60_000);
});

describe('Dispatch: races', () => {
  it('applies a run once when two applies race: one 202, one 409 apply_in_progress', async () => {
    const day = freshDay();
    const shift = await createShift(people.anna, day);
    const run = await solvedRun(day, [(await createCase(day)).id], [shift.id]);

    const answers = await Promise.all(
      [0, 1].map(() => call('POST', `${runs}/${run.id}/apply`, { token: dispatcher })),
    );
    const ended = await applyEnded(run.id);

    expect(answers.map((answer) => answer.status).sort()).toEqual([202, 409]);
    expect(answers.find((answer) => answer.status === 409)?.body.data.reason).toBe('apply_in_progress');
    expect(ended.application.status).toBe('APPLIED');
    expect(await toursOfShift(shift.id)).toHaveLength(1);
  }, 60_000);

  it('never leaves a shift with two PLANNED tours when two runs over it are applied at once', async () => {
    const day = freshDay();
    const shift = await createShift(people.ben, day);
    const [one, two] = [await createCase(day), await createCase(day)];
    const first = await solvedRun(day, [one.id], [shift.id]);
    const second = await solvedRun(day, [two.id], [shift.id]);

    await Promise.all([first, second].map((run) => ok('POST', `${runs}/${run.id}/apply`, undefined, 202)));
    const ended = await Promise.all([first, second].map((run) => applyEnded(run.id)));

    expect(ended.map((run) => run.application.status).sort()).toEqual(['APPLIED', 'CONFLICT']);
    const tours = await toursOfShift(shift.id);
    expect(tours.filter((tour) => tour.status === 'PLANNED')).toHaveLength(1);
    const winner = ended.find((run) => run.application.status === 'APPLIED') as Json;
    const loser = ended.find((run) => run.application.status === 'CONFLICT') as Json;
    expect(tours[0]?.stops.map((stop: Json) => stop.case_id)).toEqual([
      winner.id === first.id ? one.id : two.id,
    ]);
    expect((await getCase(loser.id === first.id ? one.id : two.id)).status).toBe('NEW');
    await expectDayInvariants(day);
  }, 60_000);

  it('keeps one open tour per case and one PLANNED tour per shift when an apply races a tour write', async () => {
    const day = freshDay();
    const shift = await createShift(people.cleo, day);
    const [a, b] = [await createCase(day), await createCase(day)];
    const tour = await createTour(day, { shift_id: shift.id, stops: stopsOf([a.id]) });
    const run = await solvedRun(day, [a.id, b.id], [shift.id]);

    const [applied, written] = await Promise.all([
      call('POST', `${runs}/${run.id}/apply`, { token: dispatcher }),
      call('PATCH', `/api/v2/tours/${tour.id}`, { token: dispatcher, body: { name: 'Renamed meanwhile' } }),
    ]);
    const ended = await applyEnded(run.id);

    expect(applied.status).toBe(202);
    expect(written.status).toBe(200);
    // The rename landed before the apply read the tour (CONFLICT, nothing written) or after it wrote it.
    expect(['APPLIED', 'CONFLICT']).toContain(ended.application.status);
    if (ended.application.status === 'CONFLICT') {
      expect(ended.application.conflicts).toEqual([{ type: 'tour', id: tour.id }]);
      expect((await getCase(b.id)).status).toBe('NEW');
    }
    await expectDayInvariants(day);
  }, 60_000);
});

/** Stops the run's next apply after `k` writes, as a crash would (shared/local-stack/test-hooks.ts). */
async function crashAfter(runId: string, k: number): Promise<void> {
  await table.send(
    new PutCommand({
      TableName: 'fsm',
      Item: { pk: 'TESTHOOK', sk: `apply-crash#${runId}`, after_writes: k },
    }),
  );
}

async function crashed(runId: string): Promise<void> {
  await eventually(async () => {
    const { Item } = await table.send(
      new GetCommand({ TableName: 'fsm', Key: { pk: 'TESTHOOK', sk: `apply-crash#${runId}` } }),
    );
    expect(Item?.crashed_at).toBeDefined();
  }, 20_000);
}

describe('Dispatch: an apply that crashes mid-way', () => {
  /** A day whose plan writes a tour (created) and three cases, moving one off another tour: 5 writes. */
  async function crashDay() {
    const day = freshDay();
    const shift = await createShift(people.cleo, day);
    const cases = [await createCase(day), await createCase(day), await createCase(day)];
    const other = await createTour(day, { stops: stopsOf([cases[0]?.id as string]) });
    const run = await solvedRun(
      day,
      cases.map((work) => work.id),
      [shift.id],
    );
    expect(run.result.unassigned).toEqual([]);
    return { day, shift, cases, other, run };
  }

  it('is finished or undone by the service itself after a crash at any of its writes: all applied, or (a record it read changed while it was down) all as before', async () => {
    // Every crash point of the 5 writes, once left alone and once with the shift changed meanwhile.
    const days = await Promise.all(
      [1, 2, 3, 4].flatMap((k) =>
        [false, true].map(async (changed) => ({ k, changed, ...(await crashDay()) })),
      ),
    );

    await Promise.all(
      days.map(async ({ k, changed, run, shift }) => {
        await crashAfter(run.id, k);
        await ok('POST', `${runs}/${run.id}/apply`, undefined, 202);
        if (!changed) return;
        await crashed(run.id);
        // Down for 3 s: the shift changes meanwhile (the run planned with its old hours).
        await ok('PATCH', `/api/v2/shifts/${shift.id}`, {
          end: new Date(Date.parse(shift.end) + 1_800_000).toISOString(),
        });
      }),
    );
    const ended = await Promise.all(days.map(({ run }) => applyEnded(run.id)));

    for (const [index, { k, changed, day, shift, cases, other, run }] of days.entries()) {
      const application = ended[index]?.application;
      if (changed) {
        expect(application, `crash after ${k} writes, shift changed`).toMatchObject({
          status: 'CONFLICT',
          conflicts: [{ type: 'shift', id: shift.id }],
        });
        expect(application.not_restored).toBeUndefined();
        expect(await toursOfShift(shift.id)).toEqual([]);
        expect((await getTour(other.id)).stops.map((stop: Json) => stop.case_id)).toEqual([cases[0]?.id]);
        for (const work of cases) expect(await getCase(work.id)).toMatchObject({ status: 'NEW' });
      } else {
        expect(application.status, `crash after ${k} writes`).toBe('APPLIED');
        const tours = await toursOfShift(shift.id);
        expect(tours.map((tour) => tour.stops.map((stop: Json) => stop.case_id))).toEqual([
          routeOf(run, shift.id).stops.map((stop: Json) => stop.case_id),
        ]);
        expect((await getTour(other.id)).stops).toEqual([]);
        for (const work of cases) expect((await getCase(work.id)).status).toBe('SCHEDULED');
      }
      await expectDayInvariants(day);
    }
  }, 120_000);
});

describe('Dispatch: booking an appointment', () => {
  const slotsOf = async (caseId: string, day: number, length = 'PT2H') =>
    (
      await ok(
        'GET',
        `/api/v2/scheduling/slots?case_id=${caseId}&from=${at(day, 8)}&to=${at(day, 16)}&slot_length=${length}`,
      )
    ).items as Json[];

  it('books a slot as offered: the case SCHEDULED on the shift’s tour with the promise as its window, kept by a later run', async () => {
    const day = freshDay();
    const shift = await createShift(people.ben, day);
    const work = await createCase(day, { time_windows: [{ start: at(day, 8), end: at(day, 16) }] });
    const [best] = await slotsOf(work.id, day);
    expect(best).toBeDefined();

    const booked = await ok(
      'POST',
      `/api/v2/cases/${work.id}/book`,
      { shift_id: shift.id, start: best?.start, end: best?.end, schedule_lock: 'ASSIGNEE' },
      200,
    );

    expect(booked).toMatchObject({
      status: 'SCHEDULED',
      assignee_id: people.ben,
      time_windows: [{ start: best?.start, end: best?.end }],
      schedule_lock: 'ASSIGNEE',
      lock_version: work.lock_version + 1,
    });
    expect(Date.parse(booked.scheduled_start)).toBeGreaterThanOrEqual(Date.parse(best?.start));
    expect(Date.parse(booked.scheduled_start)).toBeLessThanOrEqual(Date.parse(best?.end));
    const [tour] = await toursOfShift(shift.id);
    expect(tour).toMatchObject({ status: 'PLANNED', driver_id: people.ben, stops: [{ case_id: work.id }] });
    // A later run over the day keeps the promise (and the lock), whatever else it plans.
    const another = await createCase(day);
    const run = await solvedRun(day, [work.id, another.id], [shift.id]);
    const stop = routeOf(run, shift.id).stops.find((entry: Json) => entry.case_id === work.id);
    expect(Date.parse(stop.start)).toBeGreaterThanOrEqual(Date.parse(best?.start));
    expect(Date.parse(stop.start)).toBeLessThanOrEqual(Date.parse(best?.end));
  }, 60_000);

  it('answers one 200 and one 409 slot_unavailable when two bookings race for room for one, and 409 for the slot taken', async () => {
    const day = freshDay();
    // Two hours, and two jobs of 90 minutes each: room for one.
    const shift = await createShift(people.anna, day, { end: at(day, 10) });
    const morning = [{ start: at(day, 8), end: at(day, 10) }];
    const [one, two] = [
      await createCase(day, { duration: 'PT90M', location: near(0.001, 0.001), time_windows: morning }),
      await createCase(day, { duration: 'PT90M', location: near(0.001, 0.001), time_windows: morning }),
    ];
    const [slot] = await slotsOf(one.id, day);
    expect(slot).toMatchObject({ shift_id: shift.id, start: at(day, 8) });

    const answers = await Promise.all(
      [one, two].map((work) =>
        call('POST', `/api/v2/cases/${work.id}/book`, {
          token: dispatcher,
          body: { shift_id: shift.id, start: slot?.start, end: slot?.end },
        }),
      ),
    );

    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const refused = answers.find((answer) => answer.status === 409);
    expect(refused?.body).toMatchObject({
      type: problemType('resource-conflict'),
      data: { reason: 'slot_unavailable' },
    });
    const loser = answers[0]?.status === 409 ? one : two;
    expect((await getCase(loser.id)).status).toBe('NEW');
    expect(await slotsOf(loser.id, day)).toEqual([]);
    const [tour] = await toursOfShift(shift.id);
    expect(tour?.stops).toHaveLength(1);
  }, 40_000);

  it('answers a burst of bookings over several shifts each as if booked alone: the fits booked, the rest refused, nothing on two tours', async () => {
    const day = freshDay();
    // Anna and Ben each have a morning of two hours: room for two 45-minute jobs each, not three.
    const shifts = [
      await createShift(people.anna, day, { end: at(day, 10) }),
      await createShift(people.ben, day, { end: at(day, 10) }),
    ];
    const morning = [{ start: at(day, 8), end: at(day, 10) }];
    const fresh = await Promise.all(
      Array.from({ length: 6 }, () =>
        createCase(day, { location: near(0.001, 0.001), time_windows: morning }),
      ),
    );
    // One more already on Cleo's tour: its booking moves it.
    const moving = await createCase(day, { location: near(0.001, 0.001), time_windows: morning });
    const cleosTour = await createTour(day, { driver_id: people.cleo, stops: stopsOf([moving.id]) });
    const done = await createCase(day, { status: 'DONE' });
    const slot = { start: at(day, 8), end: at(day, 10) };
    const requests = [
      ...fresh.map((work, index) => ({ id: work.id, shift: shifts[index % 2]?.id })),
      { id: moving.id, shift: shifts[0]?.id },
      { id: done.id, shift: shifts[1]?.id },
      { id: fresh[0]?.id, shift: randomUUID() },
    ];

    const answers = await Promise.all(
      requests.map(({ id, shift }) =>
        call('POST', `/api/v2/cases/${id}/book`, { token: dispatcher, body: { shift_id: shift, ...slot } }),
      ),
    );

    const statuses = answers.map((answer) => answer.status);
    // Two fit per shift: four of the seven open cases are booked, three refused for want of room.
    expect(statuses.slice(0, 7).filter((status) => status === 200)).toHaveLength(4);
    expect(statuses.slice(0, 7).filter((status) => status === 409)).toHaveLength(3);
    for (const answer of answers.slice(0, 7).filter((each) => each.status === 409)) {
      expect(answer.body.data).toEqual({ reason: 'slot_unavailable' });
    }
    expect(answers[7]?.body.data).toEqual({ reason: 'case_not_bookable', status: 'DONE' });
    expect(answers[8]?.status).toBe(422);
    const tours = await Promise.all(shifts.map((shift) => toursOfShift(shift.id)));
    const onTours = tours.flatMap((list) =>
      list.flatMap((tour) => tour.stops.map((stop: Json) => stop.case_id)),
    );
    const booked = requests.slice(0, 7).filter((_, index) => statuses[index] === 200);
    expect(onTours.sort()).toEqual(booked.map((request) => request.id).sort());
    for (const { id, shift } of booked) {
      const record = await getCase(id as string);
      const owner = shifts.find((each) => each.id === shift);
      expect(record).toMatchObject({
        status: 'SCHEDULED',
        assignee_id: owner?.user_id,
        time_windows: [slot],
      });
    }
    for (const [index, request] of requests.slice(0, 7).entries()) {
      if (statuses[index] === 409 && request.id !== moving.id) {
        expect((await getCase(request.id as string)).status).toBe('NEW');
      }
    }
    const movedAway = statuses[6] === 200;
    expect((await getTour(cleosTour.id)).stops).toEqual(
      movedAway ? [] : [{ case_id: moving.id, status: 'PENDING' }],
    );
    await expectDayInvariants(day);
  }, 60_000);

  it('moves a case booked again to another shift, leaving its old tour', async () => {
    const day = freshDay();
    // Anna's shift ends at noon: the afternoon is Ben's alone.
    const [annas, bens] = [
      await createShift(people.anna, day, { end: at(day, 12) }),
      await createShift(people.ben, day),
    ];
    const work = await createCase(day, { time_windows: [{ start: at(day, 8), end: at(day, 16) }] });
    const first = (await slotsOf(work.id, day)).find((slot) => slot.shift_id === annas.id) as Json;
    await ok(
      'POST',
      `/api/v2/cases/${work.id}/book`,
      { shift_id: annas.id, start: first.start, end: first.end },
      200,
    );
    // The customer asks for the afternoon instead: the old promise is lifted, then booked anew.
    await ok('PATCH', `/api/v2/cases/${work.id}`, { time_windows: null });
    const again = (await slotsOf(work.id, day, 'PT4H')).find((slot) => slot.shift_id === bens.id) as Json;

    const moved = await ok(
      'POST',
      `/api/v2/cases/${work.id}/book`,
      { shift_id: bens.id, start: again.start, end: again.end },
      200,
    );

    expect(moved).toMatchObject({
      assignee_id: people.ben,
      time_windows: [{ start: again.start, end: again.end }],
    });
    expect((await toursOfShift(annas.id))[0]?.stops).toEqual([]);
    expect((await toursOfShift(bens.id))[0]?.stops.map((stop: Json) => stop.case_id)).toEqual([work.id]);
    await expectDayInvariants(day);
  }, 40_000);

  it('refuses a case that cannot be booked (409 case_not_bookable), a shift of another workspace (422) and a case of another (404)', async () => {
    const day = freshDay();
    const shift = await createShift(people.anna, day);
    const done = await createCase(day, { status: 'DONE' });
    const betaUser = await createUser(beta);
    const betaShift = await call('POST', '/api/v2/shifts', {
      token: beta,
      body: { user_id: betaUser.id, start: at(day, 8), end: at(day, 16), start_location: depot },
    });
    const betaCase = await call('POST', '/api/v2/cases', {
      token: beta,
      body: { title: 'Beta', location: depot },
    });
    const body = { shift_id: shift.id, start: at(day, 9), end: at(day, 11) };

    const notBookable = await call('POST', `/api/v2/cases/${done.id}/book`, { token: dispatcher, body });
    const foreignShift = await call('POST', `/api/v2/cases/${(await createCase(day)).id}/book`, {
      token: dispatcher,
      body: { ...body, shift_id: betaShift.body.id },
    });
    const foreignCase = await call('POST', `/api/v2/cases/${betaCase.body.id}/book`, {
      token: dispatcher,
      body,
    });
    const backwards = await call('POST', `/api/v2/cases/${done.id}/book`, {
      token: dispatcher,
      body: { ...body, end: at(day, 8) },
    });

    expect(notBookable.status, notBookable.text).toBe(409);
    expect(notBookable.body.data).toEqual({ reason: 'case_not_bookable', status: 'DONE' });
    expect(foreignShift.status, foreignShift.text).toBe(422);
    expect(foreignShift.body.errors.map((error: Json) => error.pointer)).toEqual(['#/shift_id']);
    expect(foreignCase.status).toBe(404);
    expect(backwards.status).toBe(422);
    expect(backwards.body.errors.map((error: Json) => error.pointer)).toEqual(['#/end']);
  });
});
