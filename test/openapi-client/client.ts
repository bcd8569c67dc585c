/**
 * A small client as an integrator writes it: openapi-fetch typed by what openapi-typescript
 * generates from the served document (./generated/api.ts, made by the test beside this file).
 * It must type-check, and the lines marked @ts-expect-error must not: a document that stops
 * saying which fields are required, which sort keys exist or what a field's type is fails here.
 */
import createClient from 'openapi-fetch';
import type { components, paths } from './generated/api.ts';

export type Area = components['schemas']['Area'];
export type Problem = components['schemas']['Problem'];

export function fieldServiceClient(baseUrl: string, token: string) {
  return createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${token}` } });
}

function failure(problem: Problem): Error {
  const reason = typeof problem.data?.reason === 'string' ? ` (${problem.data.reason})` : '';
  return new Error(`${problem.status} ${problem.type}${reason}: ${problem.detail ?? problem.title}`);
}

/** Creates an area, renames it over the version it read, and finds it in the list by name. */
export async function renameArea(baseUrl: string, token: string, name: string): Promise<Area> {
  const client = fieldServiceClient(baseUrl, token);
  const created = await client.POST('/api/v2/areas', {
    body: { name, color: '#3366ff', zip_ranges: [{ from: '13403', to: '13599' }] },
  });
  if (created.error) throw failure(created.error);
  const area: Area = created.data;

  const renamed = await client.PATCH('/api/v2/areas/{area_id}', {
    params: { path: { area_id: area.id } },
    body: { name: `${name} (renamed)`, lock_version: area.lock_version },
  });
  if (renamed.error) throw failure(renamed.error);

  const listed = await client.GET('/api/v2/areas', { params: { query: { sort: ['name:asc'], size: 100 } } });
  if (listed.error) throw failure(listed.error);
  const total: number = listed.data.page.total_elements;
  const found = listed.data.items.find((item) => item.id === area.id);
  if (!found || total < 1) throw new Error('the renamed area is not listed');
  return renamed.data;
}

/** What the document forbids; each line must fail to type-check. */
export function misuses(client: ReturnType<typeof fieldServiceClient>): void {
  // @ts-expect-error color is required on create
  void client.POST('/api/v2/areas', { body: { name: 'No colour' } });
  // @ts-expect-error the sort keys of areas are an enumeration
  void client.GET('/api/v2/areas', { params: { query: { sort: ['shoe_size:asc'] } } });
  // @ts-expect-error size is a number
  void client.GET('/api/v2/areas', { params: { query: { size: 'twenty' } } });
  const roleName = { email: 'a@acme.example', firstname: 'A', lastname: 'B', role_ids: 'technician' };
  // @ts-expect-error role_ids is a list of role ids, not a role name
  void client.POST('/api/v2/users', { body: roleName });
  // @ts-expect-error the path parameter is area_id
  void client.GET('/api/v2/areas/{area_id}', { params: { path: { id: 'x' } } });
}
