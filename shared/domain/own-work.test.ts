/**
 * The field workers' writes: a holder of the full grant writes anything; a holder of the `:own`
 * grant alone only the status of its own records, to the statuses that report progress.
 */
import { describe, expect, it } from 'vitest';
import { problemOf } from '../../test/support/problem-of.ts';
import { type Grant, grantsOfRoles } from '../auth/grants.ts';
import { CommonDomainError } from './common-error.ts';
import {
  assertOwner,
  assertOwnWorkFields,
  assertOwnWorkStatus,
  caseOwnWork,
  ownWorkDocs,
  tourOwnWork,
  writesOwnWorkOnly,
} from './own-work.ts';

describe('Function: writesOwnWorkOnly', () => {
  it.each([
    { role: 'technician', expected: true },
    { role: 'driver', expected: true },
    { role: 'dispatcher', expected: false },
    { role: 'admin', expected: false },
    { role: 'owner', expected: false },
  ])('answers $expected for a $role', ({ role, expected }) => {
    // Act
    const result = writesOwnWorkOnly({ grants: grantsOfRoles([role]) }, caseOwnWork);

    // Assess
    expect(result).toBe(expected);
  });

  it('gives every role that writes cases or tours the :own grant the route requires', () => {
    for (const role of ['owner', 'admin', 'dispatcher', 'technician', 'driver']) {
      const grants: ReadonlySet<Grant> = grantsOfRoles([role]);
      expect(grants.has('cases:update:own'), role).toBe(true);
      expect(grants.has('tours:update:own'), role).toBe(true);
      expect(grants.has('vehicles:location:update:own'), role).toBe(true);
    }
  });
});

describe('Function: assertOwnWorkFields', () => {
  it('lets the status and lock_version through', () => {
    expect(() => assertOwnWorkFields({ status: 'DONE', lock_version: 3 }, caseOwnWork)).not.toThrow();
  });

  it('refuses other fields, naming them and the full grant', () => {
    // Act
    const error = problemOf(() =>
      assertOwnWorkFields(
        { status: 'DONE', title: 'x', priority: 'HIGH', description: undefined },
        caseOwnWork,
      ),
    );

    // Assess
    expect(error.type).toBe('access-denied');
    expect(error.init.data).toEqual({
      reason: 'missing_grant',
      required_grants: ['cases:update'],
      fields: ['title', 'priority'],
    });
    expect(error.message).toBe(
      'With cases:update:own you change only `status` of your own cases; `title` and `priority` need cases:update.',
    );
  });
});

describe('Function: assertOwner', () => {
  it('refuses a record of someone else with not_owner and no grant', () => {
    // Act
    const error = problemOf(() => assertOwner(false, tourOwnWork));

    // Assess
    expect(() => assertOwner(false, tourOwnWork)).toThrow(CommonDomainError);
    expect(error.type).toBe('access-denied');
    expect(error.init.data).toEqual({ reason: 'not_owner' });
  });
});

describe('Function: assertOwnWorkStatus', () => {
  it.each([
    { sent: 'IN_PROGRESS', current: 'SCHEDULED', allowed: true },
    { sent: 'ON_HOLD', current: 'IN_PROGRESS', allowed: true },
    { sent: 'DONE', current: 'IN_PROGRESS', allowed: true },
    { sent: 'SCHEDULED', current: 'SCHEDULED', allowed: true },
    { sent: undefined, current: 'NEW', allowed: true },
    { sent: 'CANCELLED', current: 'IN_PROGRESS', allowed: false },
    { sent: 'NEW', current: 'SCHEDULED', allowed: false },
    { sent: 'SCHEDULED', current: 'IN_PROGRESS', allowed: false },
  ])('lets a field worker set $sent on a $current case: $allowed', ({ sent, current, allowed }) => {
    // Act
    const act = () => assertOwnWorkStatus(sent, current, caseOwnWork);

    // Assess
    if (allowed) expect(act).not.toThrow();
    else expect(problemOf(act).init.data).toMatchObject({ reason: 'missing_grant', fields: ['status'] });
  });
});

describe('Function: ownWorkDocs', () => {
  it('says who changes what and how each refusal looks', () => {
    // Act
    const text = ownWorkDocs(tourOwnWork, 'dispatcher, admin, owner');

    // Assess
    expect(text).toContain(
      'Holders of `tours:update` too (dispatcher, admin, owner) change any field of any tour',
    );
    expect(text).toContain('`IN_PROGRESS` or `DONE`');
    expect(text).toContain(
      'The route requires `tours:update:own`, which every role that writes tours holds.',
    );
    expect(text).toContain('not_owner');
  });
});
