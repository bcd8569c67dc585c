/**
 * The baseline role grants of API-DECISIONS.md: owner has every grant, admin every grant but
 * ownership transfer, dispatchers run operations and read users, technicians and drivers read
 * what their work needs and write no tags, users or webhook endpoints.
 */
import { describe, expect, it } from 'vitest';
import { type Grant, grantCatalog, grantsOfRoles, isRoleName, roleGrants, roleNames } from './grants.ts';

describe('Function: grantsOfRoles', () => {
  it('gives principals of the same roles, in any order, one shared set', () => {
    const first = grantsOfRoles(['dispatcher', 'technician']);
    const again = grantsOfRoles(['technician', 'dispatcher']);

    expect(again).toBe(first);
    expect(grantsOfRoles(['dispatcher'])).not.toBe(first);
    expect([...first].sort()).toEqual(
      [...new Set([...grantsOfRoles(['dispatcher']), ...grantsOfRoles(['technician'])])].sort(),
    );
  });

  it('gives the owner every grant of the catalog', () => {
    // Act
    const grants = grantsOfRoles(['owner']);

    // Assess
    expect([...grants].sort()).toEqual([...grantCatalog].sort());
  });

  it('gives the admin every grant except tenant:ownership:update', () => {
    // Act
    const grants = grantsOfRoles(['admin']);

    // Assess
    expect(grants.has('tenant:ownership:update')).toBe(false);
    expect([...grants].sort()).toEqual(grantCatalog.filter((g) => g !== 'tenant:ownership:update').sort());
  });

  const writeGrants: Grant[] = ['tags:update', 'users:update', 'webhooks:create', 'webhooks:update'];

  it.each(['technician', 'driver'])('lets a %s write no tags, users or webhook endpoints', (role) => {
    // Act
    const grants = grantsOfRoles([role]);

    // Assess
    for (const grant of writeGrants) expect(grants.has(grant), grant).toBe(false);
  });

  it.each(['technician', 'driver'])('lets a %s read and comment on the work', (role) => {
    // Act
    const grants = grantsOfRoles([role]);

    // Assess
    for (const grant of ['cases:read', 'tours:read', 'comments:read', 'comments:create'] as const) {
      expect(grants.has(grant), grant).toBe(true);
    }
  });

  it.each(['technician', 'driver'])(
    'lets a %s write its own work items but no one else’s (the :own grants only)',
    (role) => {
      // Act
      const grants = grantsOfRoles([role]);

      // Assess
      for (const grant of ['cases:update:own', 'tours:update:own', 'vehicles:location:update:own'] as const) {
        expect(grants.has(grant), grant).toBe(true);
      }
      for (const grant of ['cases:update', 'tours:update', 'vehicles:update'] as const) {
        expect(grants.has(grant), grant).toBe(false);
      }
    },
  );

  it.each(['technician', 'driver'])('never gives a %s grants to administer the workspace', (role) => {
    // Act
    const grants = grantsOfRoles([role]);

    // Assess
    for (const grant of [
      'tenant:update',
      'tenant:ownership:update',
      'billing:update',
      'settings:update',
      'audit-logs:read',
      'comments:update',
    ] as const) {
      expect(grants.has(grant), grant).toBe(false);
    }
  });

  it('lets a dispatcher read users and manage areas', () => {
    // Act
    const grants = grantsOfRoles(['dispatcher']);

    // Assess
    expect(grants.has('users:read')).toBe(true);
    expect(grants.has('areas:read')).toBe(true);
    expect(grants.has('areas:update')).toBe(true);
  });

  it('lets a dispatcher manage operations but not users, tenant or webhook endpoints', () => {
    // Act
    const grants = grantsOfRoles(['dispatcher']);

    // Assess
    for (const grant of [
      'cases:update',
      'tours:update',
      'vehicles:update',
      'devices:update',
      'comments:update',
    ] as const) {
      expect(grants.has(grant), grant).toBe(true);
    }
    for (const grant of [
      'users:update',
      'tenant:update',
      'tenant:ownership:update',
      'webhooks:create',
    ] as const) {
      expect(grants.has(grant), grant).toBe(false);
    }
  });

  it.each(['owner', 'admin', 'dispatcher'])(
    'lets a %s read and plan shifts and runs (scheduling)',
    (role) => {
      // Act
      const grants = grantsOfRoles([role]);

      // Assess
      expect(grants.has('scheduling:read')).toBe(true);
      expect(grants.has('scheduling:update')).toBe(true);
    },
  );

  it.each(['technician', 'driver'])(
    'gives a %s no scheduling grant: planning is the dispatcher’s',
    (role) => {
      // Act
      const grants = grantsOfRoles([role]);

      // Assess
      expect(grants.has('scheduling:read')).toBe(false);
      expect(grants.has('scheduling:update')).toBe(false);
    },
  );

  it.each([
    { title: 'grants nothing for an unknown role', roles: ['superuser'] },
    { title: 'grants nothing for a role name in another case', roles: ['Owner'] },
    { title: 'grants nothing for an object property name', roles: ['constructor', '__proto__', 'toString'] },
    { title: 'grants nothing for no roles', roles: [] },
  ])('$title', ({ roles }) => {
    // Act
    const grants = grantsOfRoles(roles);

    // Assess
    expect(grants.size).toBe(0);
  });

  it('unites the grants of several roles and ignores unknown ones', () => {
    // Act
    const grants = grantsOfRoles(['technician', 'unknown', 'dispatcher']);

    // Assess
    expect([...grants].sort()).toEqual(
      [...new Set([...roleGrants.technician, ...roleGrants.dispatcher])].sort(),
    );
  });
});

describe('Constant: roleGrants', () => {
  it.each(roleNames)('gives %s only grants of the catalog, each once', (role) => {
    // Act
    const grants = roleGrants[role];

    // Assess
    expect(new Set(grants).size).toBe(grants.length);
    for (const grant of grants) expect(grantCatalog).toContain(grant);
  });
});

describe('Function: isRoleName', () => {
  it.each([
    { name: 'owner', expected: true },
    { name: 'driver', expected: true },
    { name: 'OWNER', expected: false },
    { name: 'root', expected: false },
  ])('answers $expected for $name', ({ name, expected }) => {
    // Act
    const result = isRoleName(name);

    // Assess
    expect(result).toBe(expected);
  });
});
