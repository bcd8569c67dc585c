import { afterEach, describe, expect, it } from 'vitest';
import { abandonWalk, choosePlan, type PlanInput, walkCost } from './list-plan.ts';

const input = (overrides: Partial<PlanInput> = {}): PlanInput => ({
  walkable: 10_000,
  needed: 21,
  candidates: { count: 100, complete: false },
  filterOnEntries: true,
  ...overrides,
});

afterEach(() => {
  delete process.env.FSM_LIST_PLAN;
});

describe('Function: choosePlan', () => {
  it('serves the matches when the probe holds them all', () => {
    expect(choosePlan(input({ candidates: { count: 3, complete: true } }))).toBe('matches');
  });

  it('walks the order when the probe was cut short: the matches are more than it holds', () => {
    // At least 100 matches of 10,000: page 0 walks at most ~2,100 entries, and measures.
    expect(walkCost(input())).toBe(2100);
    expect(choosePlan(input())).toBe('walk');
  });

  it('serves the matches when the index cannot test the filter', () => {
    expect(choosePlan(input({ filterOnEntries: false, needed: 1 }))).toBe('matches');
  });

  it('takes the plan FSM_LIST_PLAN forces', () => {
    process.env.FSM_LIST_PLAN = 'walk';
    expect(choosePlan(input({ candidates: { count: 1, complete: true } }))).toBe('walk');
  });
});

describe('Function: abandonWalk', () => {
  it('keeps walking while the observed selectivity makes the page cheaper than the matches', () => {
    // Half of the entries match: 21 matches cost ~42 entries.
    expect(abandonWalk(input(), 300, 150)).toBe(false);
  });

  it('gives up when the rest of the walk is expected to read more than every match', () => {
    // 2 matches in 300 entries (~67 of 10,000): the page's 19 more cost ~2,850 entries.
    expect(abandonWalk(input({ candidates: { count: 10, complete: false } }), 300, 2)).toBe(true);
  });

  it('gives up for a deep page of a broad search', () => {
    // Page 450 of a search matching half of 10,000: 9,000 entries to walk against 5,000 matches.
    expect(abandonWalk(input({ needed: 4521 }), 20_000, 10_000)).toBe(false);
    expect(abandonWalk(input({ needed: 4521 }), 4000, 1000)).toBe(true);
  });
});
