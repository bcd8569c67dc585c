import { describe, expect, it } from 'vitest';
import { assigneeScopeOf, canSeeCase } from './case-visibility.ts';

const id = '019CAD9D-67A0-77F5-96B9-283BD392BECE';
const own = id.toLowerCase();

describe('Function: assigneeScopeOf', () => {
  it.each([
    { roles: ['technician'], scope: own },
    { roles: ['driver'], scope: own },
    { roles: ['technician', 'driver'], scope: own },
    { roles: ['technician', 'dispatcher'], scope: undefined },
    { roles: ['dispatcher'], scope: undefined },
    { roles: ['admin'], scope: undefined },
    { roles: ['owner'], scope: undefined },
    { roles: [], scope: undefined },
  ])('limits $roles to their own cases: $scope', ({ roles, scope }) => {
    expect(assigneeScopeOf({ id, roles })).toBe(scope);
  });
});

describe('Function: canSeeCase', () => {
  it('shows a field worker its own cases only, and everyone else every case', () => {
    // Prepare
    const technician = { id, roles: ['technician'] };
    const dispatcher = { id, roles: ['dispatcher'] };

    // Assess
    expect(canSeeCase(technician, { assignee_id: own })).toBe(true);
    expect(canSeeCase(technician, { assignee_id: '019cad9d-0000-7000-8000-000000000000' })).toBe(false);
    expect(canSeeCase(technician, {})).toBe(false);
    expect(canSeeCase(dispatcher, {})).toBe(true);
  });
});
