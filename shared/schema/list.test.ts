/**
 * List envelopes and ordering (SPEC.md, Lists and rule 3): the `page` numbers clients page
 * with, and one sort order for every list so pages never overlap.
 */
import { describe, expect, it } from 'vitest';
import { pageOf, paginate, sortItems } from './list.ts';
import type { SortOrder } from './query-params.ts';

const letters = Array.from({ length: 45 }, (_, i) => `item-${i}`);

describe('Function: pageOf', () => {
  it.each([
    {
      title: 'uses page 0 and size 20 by default',
      total: 45,
      request: {},
      page: { size: 20, number: 0, total_pages: 3 },
    },
    {
      title: 'rounds the page count up',
      total: 41,
      request: { size: 20 },
      page: { size: 20, number: 0, total_pages: 3 },
    },
    {
      title: 'counts an exact multiple without an empty page',
      total: 40,
      request: { size: 20 },
      page: { size: 20, number: 0, total_pages: 2 },
    },
    {
      title: 'counts 0 pages for an empty list',
      total: 0,
      request: {},
      page: { size: 20, number: 0, total_pages: 0 },
    },
    {
      title: 'echoes a requested page beyond the end',
      total: 5,
      request: { page: 9, size: 10 },
      page: { size: 10, number: 9, total_pages: 1 },
    },
  ])('$title', ({ total, request, page }) => {
    // Act
    const result = pageOf(total, request);

    // Assess
    expect(result).toEqual({ ...page, total_elements: total });
  });
});

describe('Function: paginate', () => {
  it('returns the first 20 items and the page numbers by default', () => {
    // Act
    const result = paginate(letters, {});

    // Assess
    expect(result.items).toEqual(letters.slice(0, 20));
    expect(result.page).toEqual({ size: 20, total_elements: 45, total_pages: 3, number: 0 });
  });

  it('returns the remainder on the last page', () => {
    // Act
    const result = paginate(letters, { page: 2, size: 20 });

    // Assess
    expect(result.items).toEqual(letters.slice(40));
    expect(result.page.number).toBe(2);
  });

  it('returns no items for a page beyond the end, with the real totals', () => {
    // Act
    const result = paginate(letters, { page: 3, size: 20 });

    // Assess
    expect(result.items).toEqual([]);
    expect(result.page).toEqual({ size: 20, total_elements: 45, total_pages: 3, number: 3 });
  });

  it('returns an empty page for an empty list', () => {
    // Act
    const result = paginate([], { page: 0, size: 5 });

    // Assess
    expect(result).toEqual({ items: [], page: { size: 5, total_elements: 0, total_pages: 0, number: 0 } });
  });

  it('covers every item exactly once across the pages', () => {
    // Act
    const pages = [0, 1, 2, 3, 4].map((page) => paginate(letters, { page, size: 10 }).items);

    // Assess
    expect(pages.flat()).toEqual(letters);
  });
});

describe('Function: sortItems', () => {
  type Row = { id: string; name?: string | null; rank?: number; created_at?: string };

  const ids = (rows: Row[]) => rows.map((row) => row.id);
  const asc = (field: string): SortOrder => ({ field, direction: 'asc' });
  const desc = (field: string): SortOrder => ({ field, direction: 'desc' });

  it('sorts by one key ascending', () => {
    // Prepare
    const rows: Row[] = [
      { id: '1', name: 'Charlie' },
      { id: '2', name: 'alpha' },
      { id: '3', name: 'Bravo' },
    ];

    // Act
    const sorted = sortItems(rows, [asc('name')], []);

    // Assess
    expect(ids(sorted)).toEqual(['2', '3', '1']);
  });

  it('sorts by one key descending', () => {
    // Prepare
    const rows: Row[] = [
      { id: '1', rank: 2 },
      { id: '2', rank: 10 },
      { id: '3', rank: 1 },
    ];

    // Act
    const sorted = sortItems(rows, [desc('rank')], []);

    // Assess
    expect(ids(sorted)).toEqual(['2', '1', '3']);
  });

  it('sorts by the next key when the first ties', () => {
    // Prepare
    const rows: Row[] = [
      { id: '1', name: 'b', rank: 1 },
      { id: '2', name: 'a', rank: 1 },
      { id: '3', name: 'c', rank: 2 },
      { id: '4', name: 'a', rank: 2 },
    ];

    // Act
    const sorted = sortItems(rows, [desc('rank'), asc('name')], []);

    // Assess
    expect(ids(sorted)).toEqual(['4', '3', '2', '1']);
  });

  it('orders names case-insensitively and numbers inside them naturally', () => {
    // Prepare
    const rows: Row[] = [
      { id: '1', name: 'Area 10' },
      { id: '2', name: 'area 2' },
      { id: '3', name: 'AREA 1' },
      { id: '4', name: 'zone' },
      { id: '5', name: 'Beta' },
    ];

    // Act
    const sorted = sortItems(rows, [asc('name')], []);

    // Assess
    expect(sorted.map((row) => row.name)).toEqual(['AREA 1', 'area 2', 'Area 10', 'Beta', 'zone']);
  });

  it('compares numbers as numbers', () => {
    // Prepare
    const rows: Row[] = [
      { id: '1', rank: 100 },
      { id: '2', rank: 9 },
      { id: '3', rank: -1 },
    ];

    // Act
    const sorted = sortItems(rows, [asc('rank')], []);

    // Assess
    expect(ids(sorted)).toEqual(['3', '2', '1']);
  });

  it('puts items without the sort value last when ascending', () => {
    // Prepare
    const rows: Row[] = [
      { id: '1' },
      { id: '2', name: 'b' },
      { id: '3', name: null },
      { id: '4', name: 'a' },
    ];

    // Act
    const sorted = sortItems(rows, [asc('name')], []);

    // Assess
    expect(ids(sorted)).toEqual(['4', '2', '1', '3']);
  });

  it('puts items without the sort value last when descending too', () => {
    // Prepare
    const rows: Row[] = [
      { id: '1' },
      { id: '2', name: 'b' },
      { id: '3', name: null },
      { id: '4', name: 'a' },
    ];

    // Act
    const sorted = sortItems(rows, [desc('name')], []);

    // Assess
    expect(ids(sorted)).toEqual(['2', '4', '1', '3']);
  });

  it('orders items without the sort value by id, whether the value is null or absent', () => {
    // Prepare
    const rows: Row[] = [{ id: 'a' }, { id: 'b', name: null }];

    // Act
    const forward = sortItems(rows, [asc('name')], []);
    const backward = sortItems([...rows].reverse(), [asc('name')], []);

    // Assess
    expect(ids(forward)).toEqual(['a', 'b']);
    expect(ids(backward)).toEqual(['a', 'b']);
  });

  it('breaks ties by id ascending whatever the input order', () => {
    // Prepare
    const rows: Row[] = [
      { id: 'c', name: 'same' },
      { id: 'a', name: 'same' },
      { id: 'b', name: 'same' },
    ];

    // Act
    const forward = sortItems(rows, [desc('name')], []);
    const backward = sortItems([...rows].reverse(), [desc('name')], []);

    // Assess
    expect(ids(forward)).toEqual(['a', 'b', 'c']);
    expect(ids(backward)).toEqual(['a', 'b', 'c']);
  });

  it('honours an explicit id order instead of adding its own tie-break', () => {
    // Prepare
    const rows: Row[] = [{ id: 'a' }, { id: 'c' }, { id: 'b' }];

    // Act
    const sorted = sortItems(rows, [desc('id')], []);

    // Assess
    expect(ids(sorted)).toEqual(['c', 'b', 'a']);
  });

  it('uses the fallback order when no sort is requested', () => {
    // Prepare
    const rows: Row[] = [
      { id: '1', created_at: '2024-03-02T00:00:00.000Z' },
      { id: '2', created_at: '2024-03-01T00:00:00.000Z' },
      { id: '3', created_at: '2024-03-03T00:00:00.000Z' },
    ];

    // Act
    const sorted = sortItems(rows, [], [asc('created_at')]);

    // Assess
    expect(ids(sorted)).toEqual(['2', '1', '3']);
  });

  it('leaves the input array untouched', () => {
    // Prepare
    const rows: Row[] = [{ id: 'b' }, { id: 'a' }];

    // Act
    sortItems(rows, [], []);

    // Assess
    expect(ids(rows)).toEqual(['b', 'a']);
  });
});
