import { describe, expect, it } from 'vitest';
import type { PrincipalRecord } from '../../data/directory.store.ts';
import { roleIdOf } from '../roles/role.catalog.ts';
import type { Skill } from '../skills/skill.schema.ts';
import type { Tag } from '../tags/tag.schema.ts';
import { UserListQuery } from './user.schema.ts';
import { userFilter } from './user-list.ts';

const tag = { id: 't-1', name: 'Night Shift', color: '#000' } as Tag;
const skill = { id: 's-1', name: 'Welding' } as Skill;
const catalogs = { tags: new Map([[tag.id, tag]]), skills: new Map([[skill.id, skill]]) };

function principal(overrides: Partial<PrincipalRecord>): PrincipalRecord {
  return {
    id: 'u',
    workspace_id: 'w',
    kind: 'user',
    status: 'ACTIVE',
    roles: ['technician'],
    email: 'ann@example.test',
    firstname: 'Ann',
    lastname: 'Archer',
    created_at: '2024-01-01T00:00:00.000Z',
    updated_at: '2024-02-01T00:00:00.000Z',
    lock_version: 0,
    ...overrides,
  };
}

const matches = (query: Record<string, unknown>, user: PrincipalRecord) =>
  userFilter(UserListQuery.parse(query), catalogs)(user);

describe('Function: userFilter', () => {
  it.each([
    { title: 'ACTIVE users by default', query: {}, user: {}, expected: true },
    { title: 'no BLOCKED user by default', query: {}, user: { status: 'BLOCKED' as const }, expected: false },
    {
      title: 'every status with ALL',
      query: { status: 'ALL' },
      user: { status: 'INACTIVE' as const },
      expected: true,
    },
    {
      title: 'never a service account',
      query: { status: 'ALL' },
      user: { kind: 'service_account' as const },
      expected: false,
    },
    { title: 'a search in the e-mail', query: { search: 'ANN@' }, user: {}, expected: true },
    { title: 'a search in nothing', query: { search: 'zed' }, user: {}, expected: false },
    { title: 'a role by name in any case', query: { role: 'Technician' }, user: {}, expected: true },
    {
      title: 'any of role_ids',
      query: { role_ids: [roleIdOf('driver'), roleIdOf('technician')] },
      user: {},
      expected: true,
    },
    { title: 'none of role_ids', query: { role_ids: [roleIdOf('driver')] }, user: {}, expected: false },
    {
      title: 'a tag name in any case',
      query: { tag_names: ['night shift'] },
      user: { tag_ids: ['t-1'] },
      expected: true,
    },
    {
      title: 'a deleted tag never',
      query: { tag_names: ['night shift'] },
      user: { tag_ids: ['t-gone'] },
      expected: false,
    },
    {
      title: 'a skill id',
      query: { skill_ids: ['5c1b1e58-1f3a-4c58-9d4e-1a2b3c4d5e6f'] },
      user: { skill_ids: ['s-1'] },
      expected: false,
    },
    {
      title: 'updated_from inclusive',
      query: { updated_from: '2024-02-01T00:00:00Z' },
      user: {},
      expected: true,
    },
    {
      title: 'updated_to exclusive',
      query: { updated_to: '2024-02-01T00:00:00Z' },
      user: {},
      expected: false,
    },
  ])('matches $title: $expected', ({ query, user, expected }) => {
    expect(matches(query, principal(user))).toBe(expected);
  });
});
