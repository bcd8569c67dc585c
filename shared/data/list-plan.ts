/**
 * The list planner: per request, whether a page is served by reading the filter's matches (a
 * search word's token entries: cost = the candidates, then ordered in memory) or by walking the
 * requested order's index and testing the filter on each entry's projected attributes (cost ≈
 * the entries up to the page's end ÷ the filter's selectivity). It decides from what the read
 * already has: the counters of the wanted partitions (how many entries a walk can meet), the
 * exact count of the matches once a request of the query counted them at this list revision
 * (list-cache.ts), and only without that a bounded probe of the candidates (all of them when
 * few: then they are the answer). A probe cut short only bounds the candidates from below, so a
 * walk goes on while its own observed selectivity says it is cheaper than reading them, and gives
 * up for the matches otherwise: it never costs much more than twice the better plan. Whichever
 * plan serves a page keeps where the page and the next start, so the page asked again is walked
 * from its start (README.md, "Lists", the planner).
 */

/**
 * Candidates read first to estimate a search (one Query of 100 token entries, ~4 read units).
 * FSM_LIST_PROBE lowers it: the equivalence tests reach every plan with small collections.
 */
export function probeSize(): number {
  return Number(process.env.FSM_LIST_PROBE ?? 100);
}

export interface PlanInput {
  /** Entries the walk can meet: the counters of the wanted partitions (N). */
  walkable: number;
  /** Matches the walk must find: up to the page's end (from where it starts), plus one. */
  needed: number;
  /**
   * Candidates of the matches plan: how many the probe saw, and whether that is all of them.
   * Absent when no probe was read: choosePlan asks for one only when its choice needs it.
   */
  candidates?: { count: number; complete: boolean };
  /** The exact number of matches, when a request of this query at this revision counted them. */
  matches?: number;
  /** Whether the request must count the matches (no kept count): reading them is then paid. */
  counting?: boolean;
  /** Whether the requested order's index can test the filter on its entries. */
  filterOnEntries: boolean;
}

export type PlanKind = 'matches' | 'walk';

/** Matches expected of the whole collection: the kept count, else the probe's or the walk's. */
export function expectedMatches(input: PlanInput, walked = 0, matched = 0): number {
  if (input.matches !== undefined) return input.matches;
  const observed = walked > 0 ? (matched / walked) * input.walkable : 0;
  return Math.max(input.candidates?.count ?? 0, observed);
}

/** The cost in entries a walk to the page's end is expected to read. */
export function walkCost(input: PlanInput, walked = 0, matched = 0): number {
  const expected = expectedMatches(input, walked, matched);
  if (expected <= 0) return input.walkable;
  return Math.min(input.walkable, (input.needed * input.walkable) / expected);
}

/**
 * The plan of a request, or `probe` when the choice needs the probe and it was not read:
 * - the matches when the index cannot test the filter;
 * - the matches when the request counts them (no kept count): the count reads every candidate
 *   anyway, so a walk beside it would only add its entries;
 * - with the count kept, whichever is expected to read fewer entries: the walk from the nearest
 *   kept boundary (the page's own once a request of it was served: then it costs its page) or
 *   the matches; no probe is read;
 * - else (no total wanted, nothing kept) the probe's candidates when it holds them all (already
 *   paid for), otherwise the walk, which gives the matches the lead back as soon as its observed
 *   selectivity expects it to read more than them (abandonWalk).
 */
export function choosePlan(input: PlanInput): PlanKind | 'probe' {
  if (!input.filterOnEntries) return 'matches';
  // FSM_LIST_PLAN forces a plan where both can serve: the equivalence tests take each.
  const forced = process.env.FSM_LIST_PLAN;
  if (forced === 'walk' || forced === 'matches') return forced;
  if (input.counting) return 'matches';
  if (input.matches !== undefined) return walkCost(input) > input.matches ? 'matches' : 'walk';
  if (!input.candidates) return 'probe';
  if (input.candidates.complete) return 'matches';
  // A probe cut short says only that the matches are more than it holds: the walk is tried
  // and it measures its own selectivity as it goes (abandonWalk).
  return 'walk';
}

/**
 * Whether a walk that has read `walked` entries and found `matched` matches should give up for
 * the candidates: its observed selectivity (or the kept count) now expects the rest of it to
 * cost more than reading every candidate (a deep page of a broad search, matches clustered
 * away from the walk's start, a filter rarer than the probe said).
 */
export function abandonWalk(input: PlanInput, walked: number, matched: number): boolean {
  // A walk measures its selectivity on at least twice the probe before it may give up.
  if (walked < 2 * probeSize()) return false;
  const remaining =
    matched >= input.needed ? 0 : ((input.needed - matched) * walked) / Math.max(matched, 0.5);
  return remaining > expectedMatches(input, walked, matched);
}
