/**
 * Random users for the list property tests (list-plans.test.ts, list-lag.test.ts): names, e-mail
 * domains, statuses, roles and times from small vocabularies, so that searches share prefixes
 * and sort keys tie (accents, case, digit runs).
 */
import fc from 'fast-check';

export const firstNames = ['Anna', 'Anne', 'Ben', 'Björn', 'Zoë', 'zoe', 'Ida 9', 'Ida 10'];
export const lastNames = ['Brandt', 'brandt', 'Müller', 'Mueller', 'Schmidt', 'Öz'];
export const domains = ['acme.example', 'acme-north.example', 'other.example'];
export const statuses = ['ACTIVE', 'BLOCKED', 'INACTIVE'] as const;
export const roleNames = ['technician', 'driver', 'admin'];
/** The users list's sort fields. */
export const fields = ['last_name', 'first_name', 'email', 'created_at', 'updated_at'];
/** A few instants, so that sort keys tie. */
export const instant = (n: number) => new Date(Date.UTC(2026, 0, 1 + n)).toISOString();

export const userArb = fc.record({
  first: fc.constantFrom(...firstNames),
  last: fc.constantFrom(...lastNames),
  domain: fc.constantFrom(...domains),
  status: fc.constantFrom(...statuses),
  roles: fc.subarray(roleNames, { minLength: 1 }),
  created: fc.nat(5),
  updated: fc.nat(5),
});
export type UserSeed = typeof userArb extends fc.Arbitrary<infer T> ? T : never;
