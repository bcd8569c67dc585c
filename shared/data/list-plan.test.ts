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

  it('serves the matches when the request counts them: the count reads them all anyway', () => {
    // No kept count: a walk beside the count would only add its entries (the regression of a
    // search whose matches cluster away from the order's start: 200 walked, then every match).
    expect(choosePlan(input({ counting: true }))).toBe('matches');
  });

  it('asks for the probe only when neither a count nor a kept count decides', () => {
    const { candidates: _, ...unprobed } = input();
    expect(choosePlan(unprobed)).toBe('probe');
    expect(choosePlan({ ...unprobed, counting: true })).toBe('matches');
    expect(choosePlan({ ...unprobed, matches: 1000 })).toBe('walk');
  });

  it('weighs a kept count against the walk, without a probe', () => {
    // 1,000 of 10,000 match: page 0 from a kept start walks ~210 entries, fewer than the 1,000.
    expect(choosePlan({ walkable: 10_000, needed: 21, matches: 1000, filterOnEntries: true })).toBe('walk');
    // Page 45 with nothing kept near it: ~9,210 entries against the 1,000 matches.
    expect(choosePlan({ walkable: 10_000, needed: 921, matches: 1000, filterOnEntries: true })).toBe(
      'matches',
    );
    // 150 of 10,000: even one page walks ~1,400 entries.
    expect(choosePlan({ walkable: 10_000, needed: 21, matches: 150, filterOnEntries: true })).toBe('matches');
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

  it('weighs the rest of a walk against the kept count, not its own extrapolation', () => {
    // 10 matches in 300 entries: the page's 11 more cost ~330 entries. Extrapolated (~333
    // matches) that is cheaper; against 200 matches counted exactly it is not.
    expect(abandonWalk(input(), 300, 10)).toBe(false);
    expect(abandonWalk(input({ matches: 200 }), 300, 10)).toBe(true);
    expect(abandonWalk(input({ matches: 1000 }), 300, 10)).toBe(false);
  });

  it('gives up for a deep page of a broad search', () => {
    // Page 450 of a search matching half of 10,000: 9,000 entries to walk against 5,000 matches.
    expect(abandonWalk(input({ needed: 4521 }), 20_000, 10_000)).toBe(false);
    expect(abandonWalk(input({ needed: 4521 }), 4000, 1000)).toBe(true);
  });
});
