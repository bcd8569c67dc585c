/**
 * GET /api/v2/users through the list indexes of the users (data/lists.ts `userList`): a page
 * costs its page, not the workspace's users. Filters combine with AND; the values of one array
 * filter combine with OR (any-of).
 *
 * - `status` is the index segment: ACTIVE (default), BLOCKED or INACTIVE is one partition, ALL
 *   merges the three.
 * - every sort key has its own index; further sort keys order ties in memory.
 * - `role` (or a single `role_ids` value) is checked on the index entries while walking, and its
 *   total is a counter (per status and role).
 * - `search` starts from the search tokens (data/lists.ts `userTokens`): it costs its matches.
 * - `role_ids` with several roles, `skill_ids`, `tag_names`, `updated_from`/`updated_to` are
 *   checked on the index entries; with any of them the total is a count of the walk, which reads
 *   the index entries of the wanted statuses (never the items, never another collection).
 *
 * The page's users are read with one BatchGetItem, their skills and tags with one each.
 */
import type { z } from 'zod';
import type { Actor } from '../../auth/actor.ts';
import type { PrincipalRecord } from '../../data/directory.store.ts';
import { userStatuses } from '../../data/directory-lists.ts';
import { searchWords, workspaceScope } from '../../data/list-patterns.ts';
import { entriesWithValue, type ListOrder } from '../../data/list-read.ts';
import type { StoredRecord } from '../../data/table.ts';
import { defaultPageSize, pageOf } from '../../schema/list.ts';
import { roleNameOf } from '../roles/role.catalog.ts';
import { skillStore } from '../skills/skill.store.ts';
import { tagList } from '../tags/tag.list.ts';
import { catalogsFor, toUser } from './user.representation.ts';
import type { UserListQuery } from './user.schema.ts';
import { principalStore } from './user.store.ts';

type Query = z.output<typeof UserListQuery>;

/** SPEC.md's sort keys are `last_name`/`first_name`; `lastname`/`firstname` are accepted too. */
const orderField: Record<string, string> = {
  last_name: 'last_name',
  lastname: 'last_name',
  first_name: 'first_name',
  firstname: 'first_name',
  email: 'email',
  created_at: 'created_at',
  updated_at: 'updated_at',
};

/** Last name, then first name (the last-name index carries the first name as its second part). */
const defaultOrder: ListOrder[] = [{ field: 'last_name', direction: 'asc' }];

type Entry = StoredRecord & Partial<PrincipalRecord>;

interface Filters {
  checks: Array<(entry: Entry) => boolean>;
  /** A counter that counts exactly what the only check keeps. */
  counter?: string;
  /**
   * What the checks test, resolved (skill and tag ids as found now): the list keeps a query's
   * total and page boundaries under it (data/list-cache.ts).
   */
  key: Record<string, unknown>;
}

/** The checks of the filters no index serves, and the counter of a role filter. */
async function filtersOf(workspaceId: string, query: Query): Promise<Filters> {
  const filters: Filters = { checks: [], key: {} };
  const roleNames = new Set<string>();
  if (query.role) roleNames.add(query.role);
  const idRoles = query.role_ids?.length
    ? new Set(
        query.role_ids.map(roleNameOf).filter((name): name is NonNullable<typeof name> => Boolean(name)),
      )
    : undefined;
  if (query.role) filters.checks.push((entry) => (entry.roles ?? []).includes(query.role as string));
  filters.key.role = query.role;
  filters.key.roles = idRoles ? [...idRoles].sort() : undefined;
  if (idRoles) filters.checks.push((entry) => (entry.roles ?? []).some((name) => idRoles.has(name as never)));
  if (filters.checks.length === 1) {
    const only = query.role ?? (idRoles?.size === 1 ? [...idRoles][0] : undefined);
    if (only) filters.counter = `role=${only}`;
  }
  if (query.skill_ids?.length) {
    // Deleted skill definitions no longer match (users keep their ids, hidden).
    const existing = await skillStore.of(workspaceId).getMany(query.skill_ids.map((id) => id.toLowerCase()));
    const wanted = new Set(existing.filter(Boolean).map((skill) => String(skill?.id)));
    filters.checks.push((entry) => (entry.skill_ids ?? []).some((id) => wanted.has(id)));
    filters.key.skills = [...wanted].sort();
  }
  if (query.tag_names?.length) {
    const scope = workspaceScope(workspaceId);
    const tags = await Promise.all(
      query.tag_names.map((name) => entriesWithValue(tagList, scope, 'name', name)),
    );
    const wanted = new Set(tags.flat().map((tag) => String(tag.id)));
    filters.checks.push((entry) => (entry.tag_ids ?? []).some((id) => wanted.has(id)));
    filters.key.tags = [...wanted].sort();
  }
  const from = query.updated_from;
  if (from) filters.checks.push((entry) => String(entry.updated_at) >= from);
  const to = query.updated_to;
  if (to) filters.checks.push((entry) => String(entry.updated_at) < to);
  filters.key.updated = [from, to];
  if (filters.checks.length !== 1) delete filters.counter;
  return filters;
}

export async function listUsers(ctx: Actor, query: Query) {
  const filters = await filtersOf(ctx.workspaceId, query);
  const order = query.sort?.length
    ? query.sort.map((o) => ({ field: orderField[o.field] ?? o.field, direction: o.direction }))
    : defaultOrder;
  const search = query.search?.trim() ? searchWords(query.search) : [];
  const checks = filters.checks;
  const { items, total } = await principalStore.of(ctx).page({
    segments: query.status === 'ALL' ? userStatuses : [query.status ?? 'ACTIVE'],
    order,
    page: query.page ?? 0,
    size: query.size ?? defaultPageSize,
    ...(checks.length > 0
      ? {
          where: (entry: Entry) => checks.every((check) => check(entry)),
          filterKey: JSON.stringify(filters.key),
        }
      : {}),
    ...(filters.counter ? { countedBy: filters.counter } : {}),
    ...(search.length > 0 ? { search } : {}),
  });
  const catalogs = await catalogsFor(ctx.workspaceId, items);
  return { items: items.map((user) => toUser(user, catalogs)), page: pageOf(total, query) };
}
