/**
 * GET /api/v2/users: one Query of the principal partition plus one each for skills and tags,
 * then filters, order and page in memory (shared/data/README.md: collections are read whole).
 * Filters combine with AND; the values of one array filter combine with OR (any-of).
 */
import type { z } from 'zod';
import { listPrincipals, type PrincipalRecord } from '../../data/directory.store.ts';
import { paginate, sortItems } from '../../http/list.ts';
import type { SortOrder } from '../../http/query-params.ts';
import type { AuthenticatedContext } from '../../http/request-context.ts';
import { roleNameOf } from '../roles/role.catalog.ts';
import { existingIds, loadCatalogs, toUser, type UserCatalogs } from './user.representation.ts';
import type { User, UserListQuery } from './user.schema.ts';

type Query = z.output<typeof UserListQuery>;

/** SPEC.md's sort keys are `last_name`/`first_name`; the fields are `lastname`/`firstname`. */
const sortFieldOf: Record<string, keyof User> = {
  last_name: 'lastname',
  first_name: 'firstname',
  lastname: 'lastname',
  firstname: 'firstname',
  email: 'email',
  created_at: 'created_at',
  updated_at: 'updated_at',
};

const defaultOrder: SortOrder[] = [
  { field: 'lastname', direction: 'asc' },
  { field: 'firstname', direction: 'asc' },
];

/** The predicate of every filter the query sets. */
export function userFilter(query: Query, catalogs: UserCatalogs): (user: PrincipalRecord) => boolean {
  const checks: Array<(user: PrincipalRecord) => boolean> = [(user) => user.kind === 'user'];
  const status = query.status ?? 'ACTIVE';
  if (status !== 'ALL') checks.push((user) => user.status === status);
  const role = query.role;
  if (role) checks.push((user) => user.roles.includes(role));
  if (query.role_ids?.length) {
    const names = new Set(query.role_ids.map(roleNameOf));
    checks.push((user) => user.roles.some((name) => names.has(name as never)));
  }
  if (query.skill_ids?.length) {
    const wanted = new Set(query.skill_ids.map((id) => id.toLowerCase()));
    checks.push((user) => existingIds(user.skill_ids, catalogs.skills).some((id) => wanted.has(id)));
  }
  if (query.tag_names?.length) {
    const wanted = new Set(query.tag_names.map((name) => name.toLowerCase()));
    checks.push((user) =>
      existingIds(user.tag_ids, catalogs.tags).some((id) =>
        wanted.has(catalogs.tags.get(id)?.name.toLowerCase() ?? ''),
      ),
    );
  }
  const search = query.search?.trim().toLowerCase();
  if (search) {
    checks.push((user) =>
      [user.email, user.firstname, user.lastname].some((value) => value?.toLowerCase().includes(search)),
    );
  }
  const from = query.updated_from;
  if (from) checks.push((user) => Date.parse(user.updated_at) >= Date.parse(from));
  const to = query.updated_to;
  if (to) checks.push((user) => Date.parse(user.updated_at) < Date.parse(to));
  return (user) => checks.every((check) => check(user));
}

export async function listUsers(ctx: AuthenticatedContext, query: Query) {
  const [principals, catalogs] = await Promise.all([
    listPrincipals(ctx.workspaceId),
    loadCatalogs(ctx.workspaceId),
  ]);
  const users = principals.filter(userFilter(query, catalogs)).map((user) => toUser(user, catalogs));
  const order = (query.sort ?? []).map((o) => ({
    field: sortFieldOf[o.field] ?? o.field,
    direction: o.direction,
  }));
  return paginate(sortItems(users, order, defaultOrder), query);
}
