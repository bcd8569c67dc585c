import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, eventually, problemType, tokenFor } from '../support/api.ts';

let owner: string;
let beta: string;

beforeAll(async () => {
  [owner, beta] = await Promise.all([tokenFor('acme-owner'), tokenFor('beta-admin')]);
});

interface Entry {
  id: string;
  event_type: string;
  created_at: string;
  actor?: { type: string; id?: string };
  request?: { id: string; correlation_id: string };
  resource: { type: string; id: string };
  data: { object: Record<string, unknown>; previous_attributes?: Record<string, unknown> };
}

async function entriesFor(resourceId: string, token = owner, query = 'size=100'): Promise<Entry[]> {
  const response = await call('GET', `/api/v2/audit-logs?${query}`, { token });
  expect(response.status).toBe(200);
  return (response.body.items as Entry[]).filter((entry) => entry.resource.id === resourceId);
}

describe('Audit logs', () => {
  it('records every change of an area, newest first, with actor, request ids and changed keys only', async () => {
    const created = await call('POST', '/api/v2/areas', {
      token: owner,
      body: { name: 'Audited', color: '#123456' },
      headers: { 'correlation-id': 'audit-corr-1' },
    });
    const id = created.body.id as string;
    await call('PATCH', `/api/v2/areas/${id}`, {
      token: owner,
      body: { name: 'Audited 2', description: 'new' },
    });
    await call('DELETE', `/api/v2/areas/${id}`, { token: owner });

    const entries = await eventually(async () => {
      const found = await entriesFor(id);
      expect(found).toHaveLength(3);
      return found;
    });

    expect(entries.map((e) => e.event_type)).toEqual(['area.deleted', 'area.updated', 'area.created']);
    const [deleted, updated, createdEntry] = entries as [Entry, Entry, Entry];
    expect(createdEntry.request).toEqual({
      id: created.headers.get('request-id'),
      correlation_id: 'audit-corr-1',
    });
    expect(createdEntry.actor?.type).toBe('USER');
    expect(createdEntry.data.object).toMatchObject({ id, name: 'Audited' });
    expect(createdEntry.data).not.toHaveProperty('previous_attributes');
    expect(updated.data.previous_attributes).toEqual({ name: 'Audited', description: null });
    expect(deleted.data.object).toMatchObject({ id, name: 'Audited 2' });
    expect(createdEntry.id < updated.id && updated.id < deleted.id).toBe(true);
  });

  it('filters by created_from (inclusive) and created_to (exclusive)', async () => {
    const tag = await call('POST', '/api/v2/tags', {
      token: owner,
      body: { name: `t-${randomUUID()}`, color: '#000' },
    });
    const [entry] = await eventually(async () => {
      const found = await entriesFor(tag.body.id);
      expect(found).toHaveLength(1);
      return found;
    });
    const at = encodeURIComponent(entry!.created_at);

    expect(await entriesFor(tag.body.id, owner, `created_from=${at}&size=100`)).toHaveLength(1);
    expect(await entriesFor(tag.body.id, owner, `created_to=${at}&size=100`)).toHaveLength(0);
  });

  it('pages with total_elements counting the whole window', async () => {
    const response = await call('GET', '/api/v2/audit-logs?size=1&page=1', { token: owner });

    expect(response.status).toBe(200);
    expect(response.body.items.length).toBeLessThanOrEqual(1);
    expect(response.body.page).toMatchObject({ size: 1, number: 1 });
    expect(response.body.page.total_pages).toBe(response.body.page.total_elements);
  });

  it('answers a page far past the end with an empty page, not a 500', async () => {
    const response = await call('GET', '/api/v2/audit-logs?size=100&page=2147483647', { token: owner });

    expect(response.status).toBe(200);
    expect(response.body.items).toEqual([]);
    expect(response.body.page).toMatchObject({ size: 100, number: 2147483647 });
  });

  it('shows a workspace only its own entries', async () => {
    const area = await call('POST', '/api/v2/areas', {
      token: owner,
      body: { name: 'Private', color: '#654321' },
    });
    await eventually(async () => expect(await entriesFor(area.body.id)).toHaveLength(1));

    expect(await entriesFor(area.body.id, beta)).toHaveLength(0);
  });

  it.each([
    { title: 'a malformed created_from', query: 'created_from=yesterday' },
    {
      title: 'created_to before created_from',
      query: 'created_from=2026-01-02T00:00:00Z&created_to=2026-01-01T00:00:00Z',
    },
    {
      title: 'a repeated created_from',
      query: 'created_from=2026-01-01T00:00:00Z&created_from=2026-01-02T00:00:00Z',
    },
  ])('answers 422 for $title', async ({ query }) => {
    const response = await call('GET', `/api/v2/audit-logs?${query}`, { token: owner });

    expect(response.status).toBe(422);
    expect(response.body.type).toEqual(problemType('validation-failed'));
  });
});
