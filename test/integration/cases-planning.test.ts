/**
 * The planning fields of cases over HTTP, in the Case Works workspace: duration (PT1H unless
 * set, answered in its shortest form, bounded), required_skill_ids (skill definitions of the
 * workspace, each once) and time_windows (ordered, not overlapping, each start before its end),
 * with their pointers, merge-patch clearing and events; and the candidate cases of an
 * optimization run (case-planning.ts `planningCandidates`), read straight from the emulator.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { call, claimsOf, eventually, problemType, tokenFor } from '../support/api.ts';

let admin: string;
let dispatcher: string;
let beta: string;
let skills: string[];
let betaSkill: string;

beforeAll(async () => {
  [admin, dispatcher, beta] = await Promise.all([
    tokenFor('cases-admin'),
    tokenFor('cases-dispatcher'),
    tokenFor('beta-admin'),
  ]);
  const skill = async (token: string) => {
    const response = await call('POST', '/api/v2/skills', { token, body: { name: `Skill ${randomUUID()}` } });
    expect(response.status, response.text).toBe(201);
    return String(response.body.id);
  };
  skills = [await skill(admin), await skill(admin)];
  betaSkill = await skill(beta);
});

const berlin = { latitude: 52.52, longitude: 13.405 };

async function createCase(body: Record<string, unknown> = {}) {
  const response = await call('POST', '/api/v2/cases', {
    token: dispatcher,
    body: { title: `Planned ${randomUUID().slice(0, 8)}`, ...body },
  });
  expect(response.status, response.text).toBe(201);
  return response.body as Record<string, any>;
}

const window = (start: string, end: string) => ({ start, end });

describe('Cases: planning fields', () => {
  it('answers duration PT1H when none is sent, and omits skills and windows', async () => {
    const created = await createCase();
    const read = await call('GET', `/api/v2/cases/${created.id}`, { token: dispatcher });

    expect(created.duration).toBe('PT1H');
    expect(created).not.toHaveProperty('required_skill_ids');
    expect(created).not.toHaveProperty('time_windows');
    expect(read.body).toEqual(created);
  });

  it('keeps the planning fields: duration in its shortest form, skills lower-cased, windows in UTC', async () => {
    const created = await createCase({
      duration: 'PT90M',
      required_skill_ids: [skills[0]?.toUpperCase(), skills[1]],
      time_windows: [
        window('2026-03-04T08:00:00+01:00', '2026-03-04T10:00:00+01:00'),
        window('2026-03-04T10:00:00+01:00', '2026-03-04T12:00:00+01:00'),
      ],
    });

    expect(created).toMatchObject({
      duration: 'PT1H30M',
      required_skill_ids: skills,
      time_windows: [
        window('2026-03-04T07:00:00.000Z', '2026-03-04T09:00:00.000Z'),
        window('2026-03-04T09:00:00.000Z', '2026-03-04T11:00:00.000Z'),
      ],
    });
    const listed = await call('GET', '/api/v2/cases?size=5', { token: dispatcher });
    expect(listed.body.items.find((item: { id: string }) => item.id === created.id)).toEqual(created);
  });

  it.each([
    { title: 'a duration under a minute', body: { duration: 'PT59S' }, pointer: '#/duration' },
    { title: 'a duration over a day', body: { duration: 'P1DT1M' }, pointer: '#/duration' },
    { title: 'a duration in months', body: { duration: 'P1M' }, pointer: '#/duration' },
    { title: 'a duration in minutes as a number', body: { duration: 45 }, pointer: '#/duration' },
    { title: 'a blank duration', body: { duration: ' ' }, pointer: '#/duration' },
    {
      title: 'a skill id twice',
      body: { required_skill_ids: ['SKILL', 'skill'] },
      pointer: '#/required_skill_ids/1',
    },
    {
      title: 'a malformed skill id',
      body: { required_skill_ids: ['gas'] },
      pointer: '#/required_skill_ids/0',
    },
    {
      title: 'a window ending before it starts',
      body: { time_windows: [window('2026-03-04T10:00:00Z', '2026-03-04T09:00:00Z')] },
      pointer: '#/time_windows/0/end',
    },
    {
      title: 'a window ending as it starts',
      body: { time_windows: [window('2026-03-04T10:00:00Z', '2026-03-04T10:00:00Z')] },
      pointer: '#/time_windows/0/end',
    },
    {
      title: 'windows out of order',
      body: {
        time_windows: [
          window('2026-03-05T10:00:00Z', '2026-03-05T12:00:00Z'),
          window('2026-03-04T10:00:00Z', '2026-03-04T12:00:00Z'),
        ],
      },
      pointer: '#/time_windows/1/start',
    },
    {
      title: 'overlapping windows',
      body: {
        time_windows: [
          window('2026-03-04T08:00:00Z', '2026-03-04T12:00:00Z'),
          window('2026-03-04T11:00:00Z', '2026-03-04T14:00:00Z'),
        ],
      },
      pointer: '#/time_windows/1/start',
    },
    {
      title: 'a window without end',
      body: { time_windows: [{ start: '2026-03-04T08:00:00Z' }] },
      pointer: '#/time_windows/0/end',
    },
    {
      title: '21 windows',
      body: {
        time_windows: Array.from({ length: 21 }, (_, i) =>
          window(
            `2026-03-${String(i + 1).padStart(2, '0')}T08:00:00Z`,
            `2026-03-${String(i + 1).padStart(2, '0')}T09:00:00Z`,
          ),
        ),
      },
      pointer: '#/time_windows',
    },
  ])('refuses $title with 422 at $pointer', async ({ body, pointer }) => {
    const resolved = JSON.parse(
      JSON.stringify(body)
        .replaceAll('"SKILL"', `"${skills[0]}"`)
        .replaceAll('"skill"', `"${skills[0]?.toUpperCase()}"`),
    );
    const response = await call('POST', '/api/v2/cases', {
      token: dispatcher,
      body: { title: 'x', ...resolved },
    });

    expect(response.status, response.text).toBe(422);
    expect(response.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ pointer })]));
  });

  it('points at each unknown skill: of no workspace, of another workspace', async () => {
    const response = await call('POST', '/api/v2/cases', {
      token: dispatcher,
      body: { title: 'x', required_skill_ids: [skills[0], randomUUID(), betaSkill] },
    });

    expect(response.status).toBe(422);
    expect(response.body.errors.map((error: { pointer: string }) => error.pointer)).toEqual([
      '#/required_skill_ids/1',
      '#/required_skill_ids/2',
    ]);
  });

  it('merge-patches: null and [] clear skills and windows, null duration is 422, events carry the fields', async () => {
    const created = await createCase({
      duration: 'PT2H',
      required_skill_ids: [skills[0]],
      time_windows: [window('2026-03-04T08:00:00Z', '2026-03-04T10:00:00Z')],
    });

    const nullDuration = await call('PATCH', `/api/v2/cases/${created.id}`, {
      token: dispatcher,
      body: { duration: null },
    });
    const cleared = await call('PATCH', `/api/v2/cases/${created.id}`, {
      token: dispatcher,
      body: { duration: 'PT45M', required_skill_ids: null, time_windows: [] },
    });
    const unknownSkill = await call('PATCH', `/api/v2/cases/${created.id}`, {
      token: dispatcher,
      body: { required_skill_ids: [randomUUID()] },
    });

    expect(nullDuration.status).toBe(422);
    expect(nullDuration.body.errors[0]).toMatchObject({ pointer: '#/duration' });
    expect(nullDuration.body.errors[0].type).toEqual(problemType('field-required'));
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body).toMatchObject({ duration: 'PT45M', lock_version: 1 });
    expect(cleared.body).not.toHaveProperty('required_skill_ids');
    expect(cleared.body).not.toHaveProperty('time_windows');
    expect(unknownSkill.body.errors).toEqual([
      expect.objectContaining({ pointer: '#/required_skill_ids/0' }),
    ]);
    const updated = await eventually(async () => {
      const response = await call('GET', '/api/v2/audit-logs?size=50', { token: admin });
      const found = response.body.items.find(
        (entry: any) => entry.resource.id === created.id && entry.event_type === 'case.updated',
      );
      expect(found).toBeDefined();
      return found;
    });
    expect(updated.data.object).toMatchObject({ duration: 'PT45M' });
    expect(updated.data.previous_attributes).toEqual({
      duration: 'PT2H',
      required_skill_ids: [skills[0]],
      time_windows: [window('2026-03-04T08:00:00.000Z', '2026-03-04T10:00:00.000Z')],
    });
  });
});

describe('Function: planningCandidates', () => {
  it('reads NEW cases, and SCHEDULED ones starting in the horizon, with a location and windows meeting it, leaving out those of tours in progress or done', async () => {
    // Prepare: a day of a far-off year no other test plans.
    const day = Date.UTC(2400 + Math.floor(Math.random() * 500), 5, 10);
    const at = (hours: number) => new Date(day + hours * 3_600_000).toISOString();
    const date = at(0).slice(0, 10);
    const located = { location: berlin };
    const cases = {
      anyTime: await createCase(located),
      inWindow: await createCase({ ...located, time_windows: [window(at(30), at(34))] }),
      scheduledIn: await createCase({
        ...located,
        status: 'SCHEDULED',
        time_windows: [window(at(30), at(34))],
        scheduled_start: at(31),
        scheduled_end: at(32),
      }),
      // Its windows meet the horizon, but it is scheduled on another day: it stays there.
      scheduledElsewhere: await createCase({
        ...located,
        status: 'SCHEDULED',
        time_windows: [window(at(30), at(80))],
        scheduled_start: at(60),
        scheduled_end: at(61),
      }),
      endsAtFrom: await createCase({ ...located, time_windows: [window(at(-5), at(0))] }),
      outside: await createCase({ ...located, time_windows: [window(at(-30), at(-20))] }),
      startsAtTo: await createCase({ ...located, time_windows: [window(at(48), at(50))] }),
      noLocation: await createCase(),
      done: await createCase({ ...located, status: 'DONE' }),
      onHold: await createCase({ ...located, status: 'ON_HOLD' }),
      onRoad: await createCase(located),
      doneTour: await createCase(located),
      planned: await createCase(located),
    };
    for (const [status, work] of [
      ['IN_PROGRESS', cases.onRoad],
      ['DONE', cases.doneTour],
      ['PLANNED', cases.planned],
    ] as const) {
      const tour = await call('POST', '/api/v2/tours', {
        token: dispatcher,
        body: { date, status, stops: [{ case_id: work.id }] },
      });
      expect(tour.status, tour.text).toBe(201);
    }
    process.env.FSM_DYNAMODB_ENDPOINT = inject('dynamodbEndpoint');
    const { planningCandidates } = await import('../../shared/domain/cases/case-planning.ts');

    // Act
    const found = await planningCandidates(String(claimsOf(admin).tenant_id), at(0), at(48));

    // Assess
    const ours = new Map(Object.entries(cases).map(([name, work]) => [work.id, name]));
    const names = found.flatMap((work) => (ours.has(work.id) ? [ours.get(work.id)] : []));
    expect(names.sort()).toEqual(['anyTime', 'endsAtFrom', 'inWindow', 'planned', 'scheduledIn']);
    // As the API answers it (the store's records carry an index mark besides their fields).
    const anyTime = found.find((work) => work.id === cases.anyTime.id);
    expect(JSON.parse(JSON.stringify(anyTime))).toEqual(cases.anyTime);
    const elsewhere = await planningCandidates(String(claimsOf(beta).tenant_id), at(0), at(48));
    expect(elsewhere.filter((work) => ours.has(work.id))).toEqual([]);
  });
});
