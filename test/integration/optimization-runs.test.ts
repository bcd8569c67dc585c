/**
 * Optimization runs over HTTP, in the Plan Works workspace (this file's own): validation with
 * pointers, grants and isolation; the lifecycle QUEUED → RUNNING → SUCCEEDED through the local
 * solver queue, with its events on the stream and to a webhook; FAILED with a reason, CANCELLED,
 * a solver that stopped mid-run; apply, its conflicts and its single use; the map. Each test
 * plans a day of its own in a far-off year, and every case has a time window on its day, so the
 * default selection of one test never meets another test's cases.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { EventSource } from 'eventsource';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startReceiver } from '../doubles/webhook-receiver.ts';
import { baseUrl, call, claimsOf, eventually, problemType, tokenFor } from '../support/api.ts';
import { directTable } from '../support/direct-table.ts';
import { createUser } from '../support/users.ts';

const runs = '/api/v2/scheduling/optimization-runs';
let admin: string;
let dispatcher: string;
let technician: string;
let beta: string;
const people = { gasFitter: '', electrician: '' };
let gasSkill: string;
/** A skill nobody of the workspace offers. */
let craneSkill: string;
let betaShift: string;

const year = 3000 + Math.floor(Math.random() * 900);
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
const opened: EventSource[] = [];

/** OptimizationRuns metric lines of outcome cancelled the service has written so far. */
async function cancelledRunsCounted(): Promise<number> {
  const text = await readFile(join(inject('dataDir'), 'metrics.jsonl'), 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((line) => line.includes('"OptimizationRuns":1') && line.includes('"outcome":"cancelled"')).length;
}

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
  const crane = await call('POST', '/api/v2/skills', {
    token: admin,
    body: { name: `Crane ${randomUUID().slice(0, 6)}` },
  });
  craneSkill = crane.body.id;
  const [gas, electric] = await Promise.all([
    createUser(admin, { firstname: 'Greta', lastname: 'Gas' }),
    createUser(admin, { firstname: 'Emil', lastname: 'Electric' }),
  ]);
  Object.assign(people, { gasFitter: gas.id, electrician: electric.id });
  const skills = await call('PUT', `/api/v2/users/${gas.id}/skills`, {
    token: admin,
    body: { skill_ids: [gasSkill] },
  });
  expect(skills.status, skills.text).toBe(200);
  const betaUser = await createUser(beta);
  const shift = await call('POST', '/api/v2/shifts', {
    token: beta,
    body: { user_id: betaUser.id, start: at(freshDay(), 8), end: at(freshDay(), 16), start_location: depot },
  });
  betaShift = shift.body?.id ?? randomUUID();
});

afterAll(() => {
  for (const source of opened) source.close();
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

/** A case of `day` (its window 08:00–15:00 unless given), at a place near the depot. */
async function createCase(day: number, overrides: Record<string, unknown> = {}) {
  const response = await call('POST', '/api/v2/cases', {
    token: dispatcher,
    body: {
      title: `Visit ${randomUUID().slice(0, 6)}`,
      location: near(Math.random() * 0.04 - 0.02, Math.random() * 0.06 - 0.03),
      duration: 'PT45M',
      time_windows: [{ start: at(day, 8), end: at(day, 15) }],
      ...overrides,
    },
  });
  expect(response.status, response.text).toBe(201);
  return response.body as Record<string, any>;
}

async function createRun(body: Record<string, unknown>, token = dispatcher) {
  const response = await call('POST', runs, { token, body: { time_limit_seconds: 1, ...body } });
  expect(response.status, response.text).toBe(202);
  return response.body as Record<string, any>;
}

/** The run once it reached one of `statuses`. */
async function settled(id: string, statuses = ['SUCCEEDED', 'FAILED', 'CANCELLED'], timeoutMs = 25_000) {
  return eventually(async () => {
    const response = await call('GET', `${runs}/${id}`, { token: dispatcher });
    expect(response.status).toBe(200);
    expect(statuses).toContain(response.body.status);
    return response.body as Record<string, any>;
  }, timeoutMs);
}

const horizon = (day: number) => ({ from: at(day, 0), to: at(day, 24) });

/** The stack's table, for states only a crash leaves behind (closed after the file). */
const table = directTable();
afterAll(() => table.destroy());

/** A run as the service stores it, written straight into the table (as a solver would leave it). */
async function putRun(fields: Record<string, unknown>) {
  const id = typeof fields.id === 'string' ? fields.id : randomUUID();
  const now = new Date().toISOString();
  await table.send(
    new PutCommand({
      TableName: 'fsm',
      Item: {
        pk: `T#${String(claimsOf(dispatcher).tenant_id)}#OPT_RUN`,
        sk: id,
        entity: 'optimization_run',
        id,
        status: 'QUEUED',
        ...horizon(freshDay()),
        time_limit_seconds: 30,
        created_at: now,
        updated_at: now,
        lock_version: 0,
        ...fields,
      },
    }),
  );
  return id;
}

/** The run once its apply ended (APPLIED, CONFLICT or FAILED). */
async function applicationEnded(id: string, timeoutMs = 25_000) {
  return eventually(async () => {
    const response = await call('GET', `${runs}/${id}`, { token: dispatcher });
    expect(['APPLIED', 'CONFLICT', 'FAILED']).toContain(response.body.application?.status);
    return response.body as Record<string, any>;
  }, timeoutMs);
}

describe('Optimization runs: create', () => {
  it.each([
    {
      title: 'to before from',
      body: { from: at(freshDay(), 10), to: at(freshDay() - 86_400_000, 9) },
      pointer: '#/to',
    },
    { title: 'a horizon over 7 days', body: { from: at(0, 0), to: at(8 * 86_400_000, 0) }, pointer: '#/to' },
    {
      title: 'a time limit of 0',
      body: { ...horizon(0), time_limit_seconds: 0 },
      pointer: '#/time_limit_seconds',
    },
    {
      title: 'a time limit of 301',
      body: { ...horizon(0), time_limit_seconds: 301 },
      pointer: '#/time_limit_seconds',
    },
    {
      title: 'a case listed twice',
      body: { ...horizon(0), case_ids: [randomUUID(), 'X'] },
      pointer: '#/case_ids/1',
    },
    { title: 'no from', body: { to: at(0, 1) }, pointer: '#/from' },
  ])('answers 422 at the field for $title', async ({ body, pointer }) => {
    const response = await call('POST', runs, { token: dispatcher, body });

    expect(response.status, response.text).toBe(422);
    expect(response.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
  });

  it('answers 422 at the index of a case or shift that is not of the workspace', async () => {
    const day = freshDay();
    const own = await createCase(day);
    const shift = await createShift(people.electrician, day);

    const response = await call('POST', runs, {
      token: dispatcher,
      body: { ...horizon(day), case_ids: [own.id, randomUUID()], shift_ids: [shift.id, betaShift] },
    });

    expect(response.status, response.text).toBe(422);
    expect(response.body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual([
      '#/case_ids/1',
      '#/shift_ids/1',
    ]);
  });

  it('answers 202 with the QUEUED run and its Location at once', async () => {
    const day = freshDay();

    const response = await call('POST', runs, { token: dispatcher, body: horizon(day) });

    expect(response.status, response.text).toBe(202);
    expect(response.body).toMatchObject({ status: 'QUEUED', ...horizon(day), time_limit_seconds: 30 });
    expect(response.headers.get('location')).toBe(`${baseUrl()}${runs}/${response.body.id}`);
  });

  it('refuses a technician (no scheduling grants) and hides runs from other workspaces', async () => {
    const run = await createRun(horizon(freshDay()));

    const denied = await call('POST', runs, { token: technician, body: horizon(freshDay()) });
    const foreign = await call('GET', `${runs}/${run.id}`, { token: beta });
    const foreignList = await call('GET', runs, { token: beta });

    expect(denied.status).toBe(403);
    expect(denied.body.data.required_grants).toEqual(['scheduling:update']);
    expect(foreign.status).toBe(404);
    expect(foreignList.body.items.map((r: { id: string }) => r.id)).not.toContain(run.id);
  });
});

/**
 * The stream's OPTIMIZATION_RUN_UPDATED:V1 messages after `lastEventId`, through EventSource. The
 * shared stack drops connections after 90 ms (FSM_TIME_SCALE): the client reconnects with
 * Last-Event-ID and the outbox replays what came since, so nothing is missed.
 */
function subscribe(token: string, lastEventId: string) {
  const received: Array<{ type: string; data: any }> = [];
  const source = new EventSource(`${baseUrl()}/api/v2/events/stream?lastEventId=${lastEventId}`, {
    fetch: (input, init) =>
      fetch(input, { ...init, headers: { ...(init?.headers ?? {}), authorization: `Bearer ${token}` } }),
  });
  opened.push(source);
  source.addEventListener('OPTIMIZATION_RUN_UPDATED:V1', (event) =>
    received.push({ type: event.type, data: JSON.parse(event.data) }),
  );
  return { source, received };
}

describe('Optimization runs: a run from POST to SUCCEEDED, then applied', () => {
  it('plans the day, tells the stream and the webhook, draws the map and applies the plan once', async () => {
    const day = freshDay();
    const receiver = await startReceiver();
    const endpoint = await call('POST', '/api/v2/webhook-endpoints', {
      token: admin,
      body: {
        display_name: 'Runs',
        endpoint_url: receiver.url,
        subscriptions: ['optimization_run.*', 'case.created'],
      },
    });
    expect(endpoint.status, endpoint.text).toBe(201);
    const [gasShift, electricShift] = [
      await createShift(people.gasFitter, day),
      await createShift(people.electrician, day),
    ];
    const gasJob = await createCase(day, { required_skill_ids: [gasSkill], title: 'Boiler service' });
    const plain = [await createCase(day), await createCase(day), await createCase(day)];
    const noPlace = await createCase(day, { location: undefined });
    const crane = await createCase(day, { required_skill_ids: [craneSkill] });
    // The last event before the run: where the stream replays from.
    const [anchor] = await receiver.waitFor(1, (r) => r.json.data.object.id === crane.id);
    const started = Date.now();

    const created = await createRun(horizon(day));
    const run = await settled(created.id);
    const elapsed = Date.now() - started;

    console.info(`optimization run (5 cases, 2 shifts, limit 1 s): POST → SUCCEEDED in ${elapsed} ms`);
    expect(run).toMatchObject({ status: 'SUCCEEDED', travel_model: 'great-circle', time_limit_seconds: 1 });
    expect(run.started_at >= run.created_at && run.finished_at >= run.started_at).toBe(true);
    const stops = run.result.routes.flatMap((route: any) =>
      route.stops.map((stop: any) => [stop.case_id, route]),
    );
    const routeOf = new Map(stops);
    expect((routeOf.get(gasJob.id) as any)?.shift_id).toBe(gasShift.id);
    for (const work of plain) expect(routeOf.has(work.id)).toBe(true);
    // The default selection plans cases with a location only.
    expect(run.result.unassigned).toEqual([{ case_id: crane.id, reason: 'NO_SKILLED_TECHNICIAN' }]);
    expect(routeOf.has(noPlace.id)).toBe(false);
    expect(run.summary).toEqual(run.result.summary);
    expect(run.summary).toMatchObject({ assigned: 4, unassigned: 1 });

    const stream = subscribe(dispatcher, anchor?.json.event_id);
    const kinds = await eventually(async () => {
      const mine = stream.received.filter((m) => m.data.optimizationRunId === run.id);
      expect(mine.map((m) => m.data.optimizationRunData.status)).toEqual(['QUEUED', 'RUNNING', 'SUCCEEDED']);
      return mine;
    });
    expect(kinds[0]?.data).toMatchObject({
      kind: 'OPTIMIZATION_RUN_UPDATED:V1',
      businessId: `optimization_run:${run.id}`,
    });
    const hooks = await receiver.waitFor(2, (r) => r.json.data.object.id === run.id);
    stream.source.close();
    expect(hooks.map((r) => r.json.type)).toEqual(['optimization_run.created', 'optimization_run.succeeded']);
    expect(hooks[1]?.json.data.object).toMatchObject({ status: 'SUCCEEDED', summary: run.summary });

    const map = await fetch(`${baseUrl()}${runs}/${run.id}/map.svg`, {
      headers: { authorization: `Bearer ${dispatcher}` },
    });
    const svg = await map.text();
    expect(map.status).toBe(200);
    expect(map.headers.get('content-type')).toBe('image/svg+xml');
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg.match(/class="route"/g)?.length).toBe(run.result.routes.length);
    expect(svg).toContain('Boiler service');
    expect(svg).toContain('Greta Gas');

    const requested = await call('POST', `${runs}/${run.id}/apply`, { token: dispatcher });
    expect(requested.status, requested.text).toBe(202);
    expect(requested.headers.get('location')).toBe(`${baseUrl()}${runs}/${run.id}`);
    expect(requested.body).toMatchObject({
      id: run.id,
      result: run.result,
      application: { status: 'APPLYING', attempt: 1, requested_at: expect.any(String) },
    });
    const applied = { body: await applicationEnded(run.id) };
    expect(applied.body.application).toMatchObject({ status: 'APPLIED', finished_at: expect.any(String) });
    expect(applied.body.applied_at).toBe(applied.body.application.finished_at);
    for (const route of run.result.routes) {
      const tours = await call('GET', `/api/v2/tours?shift_id=${route.shift_id}`, { token: dispatcher });
      expect(tours.body.items).toHaveLength(1);
      expect(tours.body.items[0]).toMatchObject({
        status: 'PLANNED',
        shift_id: route.shift_id,
        driver_id: route.user_id,
        date: at(day, 0).slice(0, 10),
        stops: route.stops.map((stop: any) => ({ case_id: stop.case_id, planned_arrival: stop.arrival })),
      });
      for (const stop of route.stops) {
        const work = await call('GET', `/api/v2/cases/${stop.case_id}`, { token: dispatcher });
        expect(work.body).toMatchObject({
          status: 'SCHEDULED',
          assignee_id: route.user_id,
          scheduled_start: stop.start,
          scheduled_end: stop.end,
        });
      }
    }
    const again = await call('POST', `${runs}/${run.id}/apply`, { token: dispatcher });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      type: problemType('resource-conflict'),
      data: { reason: 'run_applied' },
    });
    const appliedHook = await receiver.waitFor(4, (r) => r.json.data.object.id === run.id);
    expect(
      appliedHook
        .map((r) => r.json.type)
        .slice(2)
        .sort(),
    ).toEqual(['optimization_run.applied', 'optimization_run.apply_requested']);
    const listed = await call('GET', `${runs}?status=SUCCEEDED&size=100`, { token: dispatcher });
    const item = listed.body.items.find((r: { id: string }) => r.id === run.id);
    expect(item).toMatchObject({ summary: run.summary, applied_at: applied.body.applied_at });
    expect(item.result).toBeUndefined();
    expect(electricShift.id).toBeDefined();
    await receiver.stop();
    await call('DELETE', `/api/v2/webhook-endpoints/${endpoint.body.id}`, { token: admin });
  }, 60_000);
});

describe('Optimization runs: service levels', () => {
  it('plans the cases with a due date first and ends them by it, and plans one it cannot meet as early as it can, reported late', async () => {
    // Prepare: four hours of shift, six hours of work; two cases are due by the evening, one is
    // due five minutes into the shift (an hour of work cannot end by then).
    const day = freshDay();
    const shift = await createShift(people.gasFitter, day, { end: at(day, 12), breaks: [] });
    const plain = await Promise.all([0, 1, 2].map(() => createCase(day, { duration: 'PT1H' })));
    const due = await Promise.all(
      [0, 1].map(() => createCase(day, { duration: 'PT1H', due_by: at(day, 18) })),
    );
    const urgent = await createCase(day, { duration: 'PT1H', due_by: at(day, 8.08) });

    // Act
    const created = await createRun({ ...horizon(day), shift_ids: [shift.id] });
    const run = await settled(created.id);

    // Assess
    expect(run.status, JSON.stringify(run)).toBe('SUCCEEDED');
    const stops = run.result.routes.flatMap((route: { stops: Array<Record<string, any>> }) => route.stops);
    const stopOf = (id: string) => stops.find((stop: Record<string, any>) => stop.case_id === id);
    for (const record of due) {
      expect(stopOf(record.id), 'a due case is planned').toBeDefined();
      expect(Date.parse(stopOf(record.id)?.end)).toBeLessThanOrEqual(Date.parse(at(day, 18)));
      expect(stopOf(record.id)?.late).toBeUndefined();
    }
    expect(stopOf(urgent.id)).toMatchObject({ late: true, late_by: expect.stringMatching(/^PT/) });
    expect(stops[0]?.case_id).toBe(urgent.id);
    const left = run.result.unassigned.map((entry: { case_id: string }) => entry.case_id);
    expect(left.every((id: string) => plain.some((record) => record.id === id))).toBe(true);
  });
});

describe('Optimization runs: apply and time', () => {
  it('applies over a case whose sla_status the service moved with time since the run read it (no conflict)', async () => {
    // Prepare: a case that turns AT_RISK (two hours before its due date) seconds after the run.
    const day = freshDay();
    const shift = await createShift(people.gasFitter, day);
    const record = await createCase(day, {
      due_by: new Date(Date.now() + 2 * 3_600_000 + 15_000).toISOString(),
    });
    const run = await settled(
      (await createRun({ ...horizon(day), case_ids: [record.id], shift_ids: [shift.id] })).id,
    );
    expect(run.status).toBe('SUCCEEDED');
    const before = await call('GET', `/api/v2/cases/${record.id}`, { token: dispatcher });
    expect(before.body.sla_status).toBe('ON_TRACK');
    await eventually(async () => {
      const moved = await call('GET', `/api/v2/cases/${record.id}`, { token: dispatcher });
      expect(moved.body.sla_status).toBe('AT_RISK');
    }, 40_000);

    // Act
    const response = await call('POST', `${runs}/${run.id}/apply`, { token: dispatcher });
    const ended = await applicationEnded(run.id);

    // Assess
    expect(response.status, response.text).toBe(202);
    expect(ended.application.status, JSON.stringify(ended.application)).toBe('APPLIED');
    const applied = await call('GET', `/api/v2/cases/${record.id}`, { token: dispatcher });
    expect(applied.body).toMatchObject({ status: 'SCHEDULED', assignee_id: people.gasFitter });
  }, 60_000);
});

describe('Optimization runs: apply conflicts', () => {
  it('ends in CONFLICT naming a case edited after the run read it, and writes nothing', async () => {
    const day = freshDay();
    const shift = await createShift(people.electrician, day);
    const [first, second] = [await createCase(day), await createCase(day)];
    const noPlace = await createCase(day, { location: undefined });
    const run = await settled(
      (
        await createRun({
          ...horizon(day),
          shift_ids: [shift.id],
          case_ids: [first.id, second.id, noPlace.id],
        })
      ).id,
    );
    expect(run.status).toBe('SUCCEEDED');
    expect(run.result.unassigned).toEqual([{ case_id: noPlace.id, reason: 'NO_LOCATION' }]);
    const edited = await call('PATCH', `/api/v2/cases/${second.id}`, {
      token: dispatcher,
      body: { title: 'Changed' },
    });
    expect(edited.status).toBe(200);

    const response = await call('POST', `${runs}/${run.id}/apply`, { token: dispatcher });
    const ended = await applicationEnded(run.id);

    expect(response.status, response.text).toBe(202);
    expect(ended.application).toMatchObject({
      status: 'CONFLICT',
      conflicts: [{ type: 'case', id: second.id }],
      finished_at: expect.any(String),
    });
    const untouched = await call('GET', `/api/v2/cases/${first.id}`, { token: dispatcher });
    expect(untouched.body).toMatchObject({ status: 'NEW', lock_version: 0 });
    expect(untouched.body.assignee_id).toBeUndefined();
    const tours = await call('GET', `/api/v2/tours?shift_id=${shift.id}`, { token: dispatcher });
    expect(tours.body.items).toEqual([]);
    const read = await call('GET', `${runs}/${run.id}`, { token: dispatcher });
    expect(read.body.applied_at).toBeUndefined();
  }, 40_000);

  it('ends in CONFLICT naming the shift whose vehicle went out of service since, and writes nothing', async () => {
    const day = freshDay();
    const van = await call('POST', '/api/v2/vehicles', {
      token: dispatcher,
      body: { name: `Van ${randomUUID().slice(0, 6)}` },
    });
    expect(van.status, van.text).toBe(201);
    const free = await createShift(people.gasFitter, day);
    const driven = await createShift(people.electrician, day, { vehicle_id: van.body.id });
    // Both must start by 08:20 and take 45 minutes: one per technician, so both shifts get a route.
    const early = { time_windows: [{ start: at(day, 8), end: at(day, 8.34) }] };
    const cases = [await createCase(day, early), await createCase(day, early)];
    const run = await settled(
      (
        await createRun({
          ...horizon(day),
          shift_ids: [free.id, driven.id],
          case_ids: cases.map((c) => c.id),
        })
      ).id,
    );
    expect(run.result.routes).toHaveLength(2);
    // Not a record the run read (every version still matches), but the van's shift's tour cannot be
    // written as the plan says: a tour write refuses a vehicle out of service.
    const retired = await call('PATCH', `/api/v2/vehicles/${van.body.id}`, {
      token: dispatcher,
      body: { is_active: false },
    });
    expect(retired.status, retired.text).toBe(200);

    const response = await call('POST', `${runs}/${run.id}/apply`, { token: dispatcher });
    const ended = await applicationEnded(run.id);

    expect(response.status, response.text).toBe(202);
    expect(ended.application).toMatchObject({
      status: 'CONFLICT',
      conflicts: [{ type: 'shift', id: driven.id }],
    });
    for (const shift of [free, driven]) {
      const tours = await call('GET', `/api/v2/tours?shift_id=${shift.id}`, { token: dispatcher });
      expect(tours.body.items).toEqual([]);
    }
    for (const work of cases) {
      const read = await call('GET', `/api/v2/cases/${work.id}`, { token: dispatcher });
      expect(read.body).toMatchObject({ status: 'NEW', lock_version: 0 });
    }
    const after = await call('GET', `${runs}/${run.id}`, { token: dispatcher });
    expect(after.body.applied_at).toBeUndefined();
  }, 40_000);

  it('answers 409 for a run that is not SUCCEEDED', async () => {
    const run = await createRun(horizon(freshDay()));
    await call('POST', `${runs}/${run.id}/cancel`, { token: dispatcher });

    const response = await call('POST', `${runs}/${run.id}/apply`, { token: dispatcher });
    const map = await call('GET', `${runs}/${run.id}/map.svg`, { token: dispatcher });

    expect(response.status).toBe(409);
    expect(response.body.data).toEqual({ reason: 'run_not_succeeded', status: 'CANCELLED' });
    expect(map.status).toBe(404);
    expect(map.body.data).toEqual({ status: 'CANCELLED' });
  });
});

describe('Optimization runs: failure, cancellation, a solver that stopped', () => {
  it('fails with INVALID_PROBLEM and a reason when the optimizer refuses the problem', async () => {
    const day = freshDay();
    // Each break fits the shift, both together do not: the optimizer refuses such a vehicle.
    const shift = await createShift(people.electrician, day, {
      end: at(day, 14),
      breaks: [
        { earliest_start: at(day, 8), latest_end: at(day, 14), duration: 'PT4H' },
        { earliest_start: at(day, 8), latest_end: at(day, 14), duration: 'PT4H' },
      ],
    });
    const work = await createCase(day);

    const run = await settled(
      (await createRun({ ...horizon(day), shift_ids: [shift.id], case_ids: [work.id] })).id,
    );

    expect(run).toMatchObject({ status: 'FAILED', failure_code: 'INVALID_PROBLEM' });
    expect(run.failure_reason).toMatch(/optimizer refused/);
    expect(run.result).toBeUndefined();
  }, 40_000);

  it('cancels a QUEUED or RUNNING run, keeps it CANCELLED, and refuses to cancel a finished one', async () => {
    const cancelledBefore = await cancelledRunsCounted();
    const day = freshDay();
    const shift = await createShift(people.electrician, day);
    const work = await createCase(day);
    const run = await createRun({
      ...horizon(day),
      shift_ids: [shift.id],
      case_ids: [work.id],
      time_limit_seconds: 2,
    });

    const cancelled = await call('POST', `${runs}/${run.id}/cancel`, { token: dispatcher });
    const repeated = await call('POST', `${runs}/${run.id}/cancel`, { token: dispatcher });
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const later = await call('GET', `${runs}/${run.id}`, { token: dispatcher });
    const done = await settled(
      (await createRun({ ...horizon(day), shift_ids: [shift.id], case_ids: [work.id] })).id,
    );
    const tooLate = await call('POST', `${runs}/${done.id}/cancel`, { token: dispatcher });

    expect(cancelled.status, cancelled.text).toBe(202);
    expect(cancelled.body).toMatchObject({ status: 'CANCELLED', finished_at: expect.any(String) });
    expect(repeated.status).toBe(202);
    expect(later.body).toMatchObject({ status: 'CANCELLED' });
    expect(later.body.result).toBeUndefined();
    expect(tooLate.status).toBe(409);
    expect(tooLate.body.data).toEqual({ reason: 'run_finished', status: done.status });
    // The operator's OptimizationRuns metric counts it (by the move that ended it).
    expect(await cancelledRunsCounted()).toBeGreaterThan(cancelledBefore);
  }, 40_000);

  it('reads a run left RUNNING past its time limit as FAILED (SOLVER_STOPPED), not stuck', async () => {
    const startedAt = new Date(Date.now() - 10 * 60_000).toISOString();
    // What a solver that died mid-run leaves: RUNNING, taken up ten minutes ago with a 30 s limit.
    const id = await putRun({
      status: 'RUNNING',
      created_at: startedAt,
      updated_at: startedAt,
      started_at: startedAt,
      solver_message_id: randomUUID(),
      lock_version: 1,
    });

    const response = await call('GET', `${runs}/${id}`, { token: dispatcher });

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      status: 'FAILED',
      failure_code: 'SOLVER_STOPPED',
      finished_at: expect.any(String),
    });
    expect(response.body.failure_reason).toMatch(/stopped without an answer/);
  });
});

describe('Optimization runs: deadlines and plans of any size', () => {
  let workspaceId: string;

  beforeAll(() => {
    workspaceId = String(claimsOf(dispatcher).tenant_id);
  });

  it('reads a run QUEUED for over 30 minutes, never taken up by a solver, as FAILED (NOT_STARTED)', async () => {
    // Prepare: what a hand-over to the solver queue that failed for good leaves
    const createdAt = new Date(Date.now() - 31 * 60_000).toISOString();
    const id = await putRun({ created_at: createdAt, updated_at: createdAt });

    // Act
    const response = await call('GET', `${runs}/${id}`, { token: dispatcher });

    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      status: 'FAILED',
      failure_code: 'NOT_STARTED',
      finished_at: expect.any(String),
    });
    expect(response.body.failure_reason).toMatch(/never took the run up/);
  });

  it('leaves a RUNNING run alone whose search began recently, however long its preparation took', async () => {
    // Prepare: taken up ten minutes ago (a slow travel matrix), searching for 5 s of its 30
    const startedAt = new Date(Date.now() - 10 * 60_000).toISOString();
    const solvingAt = Date.now() - 5_000;
    const id = await putRun({
      status: 'RUNNING',
      created_at: startedAt,
      updated_at: startedAt,
      started_at: startedAt,
      solving_started_at: new Date(solvingAt).toISOString(),
      solver_message_id: randomUUID(),
      lock_version: 2,
    });

    // Act
    const response = await call('GET', `${runs}/${id}`, { token: dispatcher });

    // Assess: due 30 s + a minute after its search began
    expect(response.status).toBe(200);
    expect(response.body.status).toBe('RUNNING');
    expect(Date.parse(response.body.expected_finish_at)).toBe(solvingAt + 90_000);
    expect(response.body).not.toHaveProperty('solving_started_at');
    const cancelled = await call('POST', `${runs}/${id}/cancel`, { token: dispatcher });
    expect(cancelled.status).toBe(202);
  });

  it('stores a plan over 400 KB in parts and serves it whole, result and map', async () => {
    // Prepare: a day of 1,000 cases on 100 shifts, written as the solver writes a success
    process.env.FSM_DYNAMODB_ENDPOINT = inject('dynamodbEndpoint');
    const { planHeaderCreate, writePlanParts } = await import(
      '../../shared/domain/optimization-runs/run-plan.store.ts'
    );
    const { transactWrite } = await import('../../shared/data/table.ts');
    const day = freshDay();
    const id = randomUUID();
    const plan = bigPlan(id, day, 100, 10);
    expect(Buffer.byteLength(JSON.stringify(plan))).toBeGreaterThan(400 * 1024);
    await putRun({
      id,
      status: 'SUCCEEDED',
      ...horizon(day),
      started_at: at(day, -1),
      finished_at: at(day, -1),
      summary: {
        assigned: 1000,
        unassigned: 1,
        distance_m: 100_000,
        travel_duration: 'PT50H',
        solve_ms: 1000,
      },
      lock_version: 2,
    });
    const header = await writePlanParts(workspaceId, plan);
    await transactWrite([planHeaderCreate(workspaceId, header)]);

    // Act
    const response = await call('GET', `${runs}/${id}`, { token: dispatcher });
    const map = await fetch(`${baseUrl()}${runs}/${id}/map.svg`, {
      headers: { authorization: `Bearer ${dispatcher}` },
    });

    // Assess
    expect(header.part_count).toBeGreaterThan(1);
    expect(response.status, response.text).toBe(200);
    expect(response.body.result.routes).toEqual(plan.routes);
    expect(response.body.result.unassigned).toEqual(plan.unassigned);
    expect(map.status).toBe(200);
    expect((await map.text()).match(/class="route"/g)?.length).toBe(100);
  });
});

/** A plan of `shifts` routes of `stops` stops each, with what the run read of a day planned before. */
function bigPlan(runId: string, day: number, shifts: number, stops: number) {
  const routes = Array.from({ length: shifts }, () => ({
    shift_id: randomUUID(),
    user_id: randomUUID(),
    stops: Array.from({ length: stops }, (_, i) => ({
      case_id: randomUUID(),
      arrival: at(day, 8 + i * 0.5),
      start: at(day, 8 + i * 0.5),
      end: at(day, 8.25 + i * 0.5),
    })),
    distance_m: 1000,
    travel_duration: 'PT30M',
  }));
  const planned = routes.flatMap((route) => route.stops.map((stop) => ({ route, stop })));
  return {
    id: runId,
    lock_version: 0,
    routes,
    unassigned: [{ case_id: randomUUID(), reason: 'NO_CAPACITY' as const }],
    basis: {
      cases: Object.fromEntries(
        planned.map(({ route, stop }) => [
          stop.case_id,
          {
            v: 2,
            status: 'SCHEDULED',
            assignee_id: route.user_id,
            scheduled_start: stop.start,
            scheduled_end: stop.end,
          },
        ]),
      ),
      shifts: Object.fromEntries(routes.map((route) => [route.shift_id, { v: 1 }])),
      tours: Object.fromEntries(
        routes.map((route) => [
          randomUUID(),
          {
            v: 3,
            shift_id: route.shift_id,
            driver_id: route.user_id,
            stops: route.stops.map((stop) => ({ case_id: stop.case_id, planned_arrival: stop.arrival })),
          },
        ]),
      ),
    },
    places: {
      cases: Object.fromEntries(
        planned.map(({ stop }, i) => [
          stop.case_id,
          [depot.latitude + i / 1e5, depot.longitude] as [number, number],
        ]),
      ),
      shifts: Object.fromEntries(
        routes.map((route) => [
          route.shift_id,
          {
            start: [depot.latitude, depot.longitude] as [number, number],
            end: [depot.latitude, depot.longitude] as [number, number],
          },
        ]),
      ),
    },
  };
}
