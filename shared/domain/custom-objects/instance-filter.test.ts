/**
 * The semantics of instance filters as GraphQL `where` publishes them: SQL-like null handling,
 * array properties matching on any element, LIKE without case, boolean combinations.
 */
import { describe, expect, it } from 'vitest';
import {
  type ComparisonOperator,
  type InstanceFilter,
  likePattern,
  matchesFilter,
} from './instance-filter.ts';

const record = {
  id: '019d0000-0000-7000-8000-000000000001',
  created_at: '2026-05-02T10:00:00.000Z',
  data: { amount: 12.5, status: 'OPEN', tags: ['red', 'blue'], customer: { city: 'Köln' } },
};
const where = (field: string, op: ComparisonOperator, value: unknown): InstanceFilter => ({
  field,
  op,
  value,
});

describe('Instance filters', () => {
  it.each([
    [where('amount', '_eq', 12.5), true],
    [where('amount', '_gt', 12.5), false],
    [where('amount', '_gte', 12.5), true],
    [where('amount', '_lt', 20), true],
    [where('status', '_in', ['PAID', 'OPEN']), true],
    [where('status', '_neq', 'OPEN'), false],
    [where('missing', '_neq', 'x'), false],
    [where('missing', '_is_null', true), true],
    [where('amount', '_is_null', false), true],
    [where('customer.city', '_ilike', 'kö%'), true],
    [where('customer.city', '_ilike', 'k_ln'), true],
    [where('status', '_ilike', 'open_'), false],
    [where('tags', '_eq', 'blue'), true],
    [where('tags', '_neq', 'blue'), false],
    [where('created_at', '_gte', '2026-05-01'), true],
    [where('id', '_eq', record.id), true],
  ])('%j → %s', (filter, expected) => {
    expect(matchesFilter(record, filter)).toBe(expected);
  });

  it('combines conditions with and, or and not', () => {
    const open = where('status', '_eq', 'OPEN');
    const big = where('amount', '_gt', 100);
    expect(matchesFilter(record, { and: [open, big] })).toBe(false);
    expect(matchesFilter(record, { or: [open, big] })).toBe(true);
    expect(matchesFilter(record, { not: big })).toBe(true);
  });

  it('reads LIKE patterns literally apart from % and _', () => {
    expect(likePattern('a.c%').test('abcd')).toBe(false);
    expect(likePattern('a.c%').test('a.cd')).toBe(true);
    expect(likePattern('(x)').test('(X)')).toBe(true);
  });
});
