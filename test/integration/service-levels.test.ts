/**
 * Service levels over HTTP (API-DECISIONS.md, "Maintenance plans and service levels";
 * docs/service-levels.md) in the seeded workspace "Case Works": due_by on create, PATCH and clear;
 * sla_status as every write judges it; a case due in a few seconds turning BREACHED on time with
 * nothing else touching it (the test stack's detector runs every 2 s, FSM_SLA_DETECTOR_PERIOD_MS),
 * its case.updated recorded once; listing by sla_status; two detectors at once emitting one breach.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { call, claimsOf, eventually, problemType, tokenFor } from '../support/api.ts';
import { directTable } from '../support/direct-table.ts';

let admin: string;
let dispatcher: string;
let workspaceId: string;

beforeAll(async () => {
  [admin, dispatcher] = await Promise.all([tokenFor('cases-admin'), tokenFor('cases-dispatcher')]);
  workspaceId = String(claimsOf(dispatcher).tenant_id);
});

const second = 1000;
const hour = 3600 * second;
const inFuture = (ms: number) => new Date(Date.now() + ms).toISOString();

async function createCase(body: Record<string, unknown>) {
  const response = await call('POST', '/api/v2/cases', {
    token: dispatcher,
    body: { title: `SLA ${randomUUID().slice(0, 8)}`, ...body },
  });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

const readCase = async (id: string) => (await call('GET', `/api/v2/cases/${id}`, { token: dispatcher })).body;

interface AuditEntry {
  event_type: string;
  actor?: { type: string };
  resource: { id: string };
  data: { object: Record<string, unknown>; previous_attributes?: Record<string, unknown> };
}

/** The case's case.updated events that changed its sla_status, oldest first. */
async function slaEvents(caseId: string, since: string): Promise<AuditEntry[]> {
  const found: AuditEntry[] = [];
  for (let page = 0; ; page++) {
    const response = await call(
      'GET',
      `/api/v2/audit-logs?size=100&page=${page}&created_from=${encodeURIComponent(since)}`,
      { token: admin },
    );
    expect(response.status, response.text).toBe(200);
    const items = response.body.items as AuditEntry[];
    found.push(
      ...items.filter(
        (entry) =>
          entry.resource.id === caseId &&
          entry.event_type === 'case.updated' &&
          entry.data.previous_attributes !== undefined &&
          'sla_status' in entry.data.previous_attributes,
      ),
    );
    if (items.length < 100) return found.reverse();
  }
}

describe('Service levels: due_by on a case', () => {
  it('answers a case without due_by without sla_status', async () => {
    const created = await createCase({});
    expect(created).not.toHaveProperty('due_by');
    expect(created).not.toHaveProperty('sla_status');
  });

  it.each([
    { title: 'ON_TRACK when due more than 2 hours ahead', dueIn: 26 * hour, sla: 'ON_TRACK' },
    { title: 'AT_RISK when due within 2 hours', dueIn: hour, sla: 'AT_RISK' },
    { title: 'BREACHED when due_by has passed', dueIn: -hour, sla: 'BREACHED' },
  ])('creates a case $title', async ({ dueIn, sla }) => {
    const due = inFuture(dueIn);
    const created = await createCase({ due_by: due });
    expect(created.due_by).toBe(due);
    expect(created.sla_status).toBe(sla);
    expect((await readCase(created.id)).sla_status).toBe(sla);
  });

  it('answers due_by in UTC whatever the offset sent', async () => {
    const created = await createCase({ due_by: '2099-03-04T15:00:00+01:00' });
    expect(created.due_by).toBe('2099-03-04T14:00:00.000Z');
    expect(created.sla_status).toBe('ON_TRACK');
  });

  it('puts a case AT_RISK at once when its scheduled window ends after due_by', async () => {
    const created = await createCase({
      due_by: '2099-03-04T10:00:00Z',
      scheduled_start: '2099-03-04T09:30:00Z',
      scheduled_end: '2099-03-04T10:30:00Z',
    });
    expect(created.sla_status).toBe('AT_RISK');
  });

  it('sets, moves and clears due_by by PATCH, sla_status with it', async () => {
    const created = await createCase({});
    const set = await call('PATCH', `/api/v2/cases/${created.id}`, {
      token: dispatcher,
      body: { due_by: inFuture(-hour) },
    });
    expect(set.status, set.text).toBe(200);
    expect(set.body.sla_status).toBe('BREACHED');

    const moved = await call('PATCH', `/api/v2/cases/${created.id}`, {
      token: dispatcher,
      body: { due_by: inFuture(48 * hour) },
    });
    expect(moved.body.sla_status).toBe('ON_TRACK');

    const cleared = await call('PATCH', `/api/v2/cases/${created.id}`, {
      token: dispatcher,
      body: { due_by: null },
    });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body).not.toHaveProperty('due_by');
    expect(cleared.body).not.toHaveProperty('sla_status');
    expect(await readCase(created.id)).not.toHaveProperty('sla_status');
  });

  it('keeps a case finished before due_by ON_TRACK, and one finished after it BREACHED', async () => {
    const met = await createCase({ due_by: inFuture(hour) });
    const done = await call('PATCH', `/api/v2/cases/${met.id}`, {
      token: dispatcher,
      body: { status: 'DONE' },
    });
    expect(done.body.sla_status).toBe('ON_TRACK');

    const late = await createCase({ due_by: inFuture(-hour) });
    const lateDone = await call('PATCH', `/api/v2/cases/${late.id}`, {
      token: dispatcher,
      body: { status: 'DONE' },
    });
    expect(lateDone.body.sla_status).toBe('BREACHED');
  });

  it.each([
    { title: 'a date without time', body: { due_by: '2026-03-04' }, pointer: '#/due_by' },
    { title: 'a date-time without seconds', body: { due_by: '2026-03-04T14:00Z' }, pointer: '#/due_by' },
    { title: 'a number', body: { due_by: 1772632800 }, pointer: '#/due_by', type: 'field-type-invalid' },
    {
      title: 'sla_status, which the service keeps',
      body: { sla_status: 'ON_TRACK' },
      pointer: '#/sla_status',
    },
  ])('rejects $title with 422 at $pointer, on create and on PATCH', async ({ body, pointer, type }) => {
    const created = await call('POST', '/api/v2/cases', { token: dispatcher, body: { title: 'x', ...body } });
    expect(created.status).toBe(422);
    expect(created.headers.get('content-type')).toContain('application/problem+json');
    expect(created.body.type).toEqual(problemType(type ?? 'validation-failed'));
    expect(created.body.errors).toEqual([expect.objectContaining({ pointer })]);

    const existing = await createCase({});
    const patched = await call('PATCH', `/api/v2/cases/${existing.id}`, { token: dispatcher, body });
    expect(patched.status).toBe(422);
    expect(patched.body.errors).toEqual([expect.objectContaining({ pointer })]);
  });
});

describe('Service levels: on time, with nothing else happening to the case', () => {
  it('makes a case due in a few seconds BREACHED within a minute of due_by, with one case.updated', async () => {
    // Prepare: due in 8 s (room for a slow create on a busy machine), so AT_RISK from its creation
    const due = inFuture(8 * second);
    const created = await createCase({ due_by: due });
    expect(created.sla_status).toBe('AT_RISK');

    // Act: nothing; the detector alone
    const breached = await eventually(async () => {
      const current = await readCase(created.id);
      expect(current.sla_status).toBe('BREACHED');
      return current;
    }, 60 * second);

    // Assess: on time, written by the service, and recorded once
    expect(Date.parse(breached.updated_at) - Date.parse(due)).toBeGreaterThanOrEqual(0);
    expect(Date.parse(breached.updated_at) - Date.parse(due)).toBeLessThan(60 * second);
    expect(breached.lock_version).toBe(1);
    const events = await eventually(async () => {
      const found = await slaEvents(created.id, created.created_at);
      expect(found).toHaveLength(1);
      return found;
    });
    expect(events[0]?.actor?.type).toBe('SYSTEM');
    expect(events[0]?.data.object.sla_status).toBe('BREACHED');
    expect(events[0]?.data.previous_attributes).toEqual({ sla_status: 'AT_RISK' });
    // A few detector periods later still one (the detector runs every 2 s in the tests).
    await new Promise((resolve) => setTimeout(resolve, 6 * second));
    expect(await slaEvents(created.id, created.created_at)).toHaveLength(1);
    expect((await readCase(created.id)).lock_version).toBe(1);
  });

  it('makes a case AT_RISK on time, 2 hours before due_by', async () => {
    const created = await createCase({ due_by: inFuture(2 * hour + 6 * second) });
    expect(created.sla_status).toBe('ON_TRACK');

    await eventually(
      async () => expect((await readCase(created.id)).sla_status).toBe('AT_RISK'),
      60 * second,
    );
    const events = await eventually(async () => {
      const found = await slaEvents(created.id, created.created_at);
      expect(found).toHaveLength(1);
      return found;
    });
    expect(events[0]?.data.previous_attributes).toEqual({ sla_status: 'ON_TRACK' });
  });

  it('leaves a case finished in time as it is when its due_by passes', async () => {
    const due = inFuture(8 * second);
    const created = await createCase({ due_by: due });
    const done = await call('PATCH', `/api/v2/cases/${created.id}`, {
      token: dispatcher,
      body: { status: 'DONE' },
    });
    expect(done.body.sla_status).toBe('ON_TRACK');

    // Two detector periods past due_by
    await new Promise((resolve) => setTimeout(resolve, Date.parse(due) - Date.now() + 5 * second));
    const current = await readCase(created.id);
    expect(current.sla_status).toBe('ON_TRACK');
    expect(current.lock_version).toBe(1);
  });
});

describe('Service levels: the due-time index follows the case', () => {
  /** The case's items of the due-time index, by kind (read straight from the table). */
  async function indexItems(caseId: string, dueBy: string): Promise<Record<string, string>> {
    const { QueryCommand } = await import('@aws-sdk/lib-dynamodb');
    const table = directTable();
    const due = Date.parse(dueBy);
    const found: Record<string, string> = {};
    try {
      for (const at of [due - 2 * hour, due]) {
        const minute = new Date(at).toISOString().slice(0, 16);
        const { Items = [] } = await table.send(
          new QueryCommand({
            TableName: 'fsm',
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': `SLA_DUE#${minute}` },
            ConsistentRead: true,
          }),
        );
        for (const item of Items) if (item.case_id === caseId) found[String(item.kind)] = String(item.at);
      }
    } finally {
      table.destroy();
    }
    return found;
  }

  it('keeps one item per moment of an unfinished case, moves them with due_by and drops them when it is done or deleted', async () => {
    // Prepare
    const due = inFuture(5 * 24 * hour);
    const created = await createCase({ due_by: due });

    // Assess: both moments, at their exact instants
    expect(await indexItems(created.id, due)).toEqual({
      AT_RISK: new Date(Date.parse(due) - 2 * hour).toISOString(),
      BREACHED: due,
    });

    // Act + Assess: moved with due_by
    const later = inFuture(6 * 24 * hour);
    await call('PATCH', `/api/v2/cases/${created.id}`, { token: dispatcher, body: { due_by: later } });
    expect(await indexItems(created.id, due)).toEqual({});
    expect(Object.keys(await indexItems(created.id, later)).sort()).toEqual(['AT_RISK', 'BREACHED']);

    // Done: none; reopened: back; deleted: none
    await call('PATCH', `/api/v2/cases/${created.id}`, { token: dispatcher, body: { status: 'DONE' } });
    expect(await indexItems(created.id, later)).toEqual({});
    await call('PATCH', `/api/v2/cases/${created.id}`, { token: dispatcher, body: { status: 'ON_HOLD' } });
    expect(Object.keys(await indexItems(created.id, later))).toHaveLength(2);
    const deleted = await call('DELETE', `/api/v2/cases/${created.id}`, { token: dispatcher });
    expect(deleted.status).toBe(204);
    expect(await indexItems(created.id, later)).toEqual({});
  });
});

describe('Service levels: lists', () => {
  it('lists cases by sla_status, with exact totals, alone and with other filters', async () => {
    // Prepare: an area of its own, one case per service level and one without
    const area = await call('POST', '/api/v2/areas', {
      token: admin,
      body: { name: `SLA ${randomUUID().slice(0, 8)}`, color: '#aa3300' },
    });
    expect(area.status, area.text).toBe(201);
    const areaId = area.body.id as string;
    const [breached, atRisk, onTrack] = await Promise.all([
      createCase({ area_id: areaId, due_by: inFuture(-hour) }),
      createCase({ area_id: areaId, due_by: inFuture(hour) }),
      createCase({ area_id: areaId, due_by: inFuture(24 * hour) }),
      createCase({ area_id: areaId }),
    ]);

    // Act + Assess: the area and the service level together
    for (const [sla, expected] of [
      ['BREACHED', breached],
      ['AT_RISK', atRisk],
      ['ON_TRACK', onTrack],
    ] as const) {
      await eventually(async () => {
        const page = await call('GET', `/api/v2/cases?area_id=${areaId}&sla_status=${sla}`, {
          token: dispatcher,
        });
        expect(page.status, page.text).toBe(200);
        expect(page.body.items.map((item: { id: string }) => item.id)).toEqual([expected.id]);
        expect(page.body.page.total_elements).toBe(1);
      });
    }

    // The service level alone (its counters), over the open statuses: every item has it
    await eventually(async () => {
      const page = await call('GET', '/api/v2/cases?sla_status=BREACHED&statuses=NEW&size=100', {
        token: dispatcher,
      });
      expect(page.status, page.text).toBe(200);
      const items = page.body.items as Array<{ id: string; sla_status?: string }>;
      expect(items.every((item) => item.sla_status === 'BREACHED')).toBe(true);
      expect(items.map((item) => item.id)).toContain(breached.id);
      expect(items.map((item) => item.id)).not.toContain(onTrack.id);
      if (items.length < 100) expect(page.body.page.total_elements).toBe(items.length);
    });
  });

  it('rejects an unknown sla_status with 422 at the query parameter', async () => {
    const response = await call('GET', '/api/v2/cases?sla_status=LATE', { token: dispatcher });
    expect(response.status).toBe(422);
    expect(response.body.errors[0].pointer).toContain('sla_status');
  });
});

describe('Service levels: two detectors at once', () => {
  it('emits one breach when two detectors settle the same due case at the same moment', async () => {
    // Prepare: a case due long after the test (the stack's own detector leaves it alone); the
    // detectors of this process judge it at its due_by.
    process.env.FSM_DYNAMODB_ENDPOINT = inject('dynamodbEndpoint');
    const { settleDueItem } = await import('../../shared/domain/cases/sla-detector.ts');
    const due = inFuture(30 * 24 * hour);
    const created = await createCase({ due_by: due });
    expect(created.sla_status).toBe('ON_TRACK');
    const entry = { workspace_id: workspaceId, case_id: created.id, kind: 'BREACHED' as const, at: due };

    // Act
    const outcomes = await Promise.all([
      settleDueItem(entry, Date.parse(due)),
      settleDueItem(entry, Date.parse(due)),
    ]);

    // Assess: one wrote, the other found it settled; one event, one version
    expect(outcomes.sort()).toEqual(['changed', 'unchanged']);
    const current = await readCase(created.id);
    expect(current.sla_status).toBe('BREACHED');
    expect(current.lock_version).toBe(1);
    const events = await eventually(async () => {
      const found = await slaEvents(created.id, created.created_at);
      expect(found).toHaveLength(1);
      return found;
    });
    expect(events[0]?.data.previous_attributes).toEqual({ sla_status: 'ON_TRACK' });
    // And a third, later, changes nothing.
    expect(await settleDueItem(entry, Date.parse(due))).toBe('unchanged');
  });

  it('emits one breach when whole detector runs meet (two of this process and the stack’s own)', async () => {
    // Prepare: a case due in 5 s
    process.env.FSM_DYNAMODB_ENDPOINT = inject('dynamodbEndpoint');
    const { detectServiceLevels } = await import('../../shared/domain/cases/sla-detector.ts');
    const due = inFuture(5 * second);
    const created = await createCase({ due_by: due });
    await new Promise((resolve) => setTimeout(resolve, Date.parse(due) - Date.now() + 50));

    // Act: two runs at once, beside the stack's timer
    const reports = await Promise.all([detectServiceLevels(), detectServiceLevels()]);

    // Assess: at most one of them wrote it (the stack's may have been first), and it is written once
    expect(reports.reduce((sum, report) => sum + report.failed, 0)).toBe(0);
    expect(reports.reduce((sum, report) => sum + report.changed, 0)).toBeLessThanOrEqual(1);
    const current = await eventually(async () => {
      const found = await readCase(created.id);
      expect(found.sla_status).toBe('BREACHED');
      return found;
    });
    expect(current.lock_version).toBe(1);
    const events = await eventually(async () => {
      const found = await slaEvents(created.id, created.created_at);
      expect(found).toHaveLength(1);
      return found;
    });
    expect(events[0]?.data.previous_attributes).toEqual({ sla_status: 'AT_RISK' });
  });
});
