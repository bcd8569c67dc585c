/**
 * The read bound of a list request: no request reads more index entries (walks, search tokens)
 * than FSM_LIST_READ_BOUND, 20,000 by default (about 1,000 read units of case entries, 740 of
 * user entries, 1,000 of search tokens). A walk stops there: a total it was counting is then
 * estimated (list-read.ts `estimatedTotal`); a page it could not fill is refused (`tooCostly`).
 * See shared/data/README.md, "The read bound".
 */
import { noteEstimatedTotal } from './call-cost.ts';
import { DataError } from './data-error.ts';
import type { ListSpec } from './list-index.ts';
import type { ListRequest, SearchContext } from './list-read.ts';
import { type WalkResult, type WalkShape, walk } from './list-scan.ts';
import { tokensMatch } from './list-search.ts';

export const readBound = () => Number(process.env.FSM_LIST_READ_BOUND ?? 20_000);

/** A page the read bound does not reach: the filter matches too few of the entries before it. */
export function tooCostly(): DataError {
  return new DataError(
    'too-costly',
    `this page lies beyond the ${readBound()} index entries one request may read: the filter matches too few of them; narrow the list (statuses, a date range, an assignee, a longer search word) or ask an earlier page`,
  );
}

/**
 * A count cut by the read bound, estimated: the matches seen, scaled by the share of the wanted
 * partitions walked (their counters: `entries`), never below what was seen nor below the page.
 */
export function estimatedTotal(result: WalkResult, entries: number, pageEnd: number): number {
  const scaled = result.walked > 0 ? Math.round((result.matches * entries) / result.walked) : result.matches;
  return Math.max(scaled, result.matches, pageEnd + 1);
}

/**
 * A search whose word matches more token entries than the read bound: the requested order walked
 * (the words tested on its entries, ListSpec `tokensOnEntries`), counting up to the bound, the
 * total estimated past it. Nothing is kept: the estimate is not a total, and the walk starts at
 * the list's start.
 */
export async function boundedSearchWalk<R extends { id: string }>(
  spec: ListSpec<R>,
  request: ListRequest,
  shape: WalkShape<R>,
  context: SearchContext,
): Promise<{ result: WalkResult; total: number; estimated?: true }> {
  const { skip, search } = context;
  const where = request.where;
  const result = await walk(spec, request, shape, {
    skip,
    size: request.size,
    where: (entry) =>
      (!where || where(entry)) &&
      context.matching(entry) &&
      tokensMatch(spec.tokens?.(entry as unknown as R) ?? [], search),
    counting: true,
    budget: readBound(),
  });
  if (!result.truncated) return { result, total: result.matches };
  if (result.page.length < request.size) throw tooCostly();
  noteEstimatedTotal();
  return {
    result: { ...result, hasMore: true, boundaries: [] },
    total: estimatedTotal(result, context.walkable, skip + request.size),
    estimated: true,
  };
}
