import { describe, expect, it } from 'vitest';
import { listRoles, roleIdOf, roleNamed, roleNameOf } from './role.catalog.ts';

describe('Role catalog', () => {
  it('maps ids to names and back, ids in any case', () => {
    for (const role of listRoles()) {
      expect(roleNameOf(role.id)).toBe(role.name);
      expect(roleNameOf(role.id.toUpperCase())).toBe(role.name);
      expect(roleIdOf(role.name)).toBe(role.id);
    }
    expect(roleNameOf('00000000-0000-4000-8000-000000000000')).toBeUndefined();
  });

  it('keeps role ids stable (UUIDv5 of the name)', () => {
    expect(roleIdOf('owner')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5/);
    expect(new Set(listRoles().map((role) => role.id)).size).toBe(5);
  });

  it('finds roles by name case-insensitively', () => {
    expect(roleNamed(' Dispatcher ')).toBe('dispatcher');
    expect(roleNamed('plumber')).toBeUndefined();
  });
});
