/**
 * The read bound of a list request: no request reads more index entries (walks, search tokens)
 * than FSM_LIST_READ_BOUND, 20,000 by default (about 1,000 read units of case entries, 740 of
 * user entries, 1,000 of search tokens). A walk stops there: a total it was counting is then
 * estimated (list-read.ts `estimatedTotal`); a page it could not fill is refused (`tooCostly`).
 * See shared/data/README.md, "The read bound".
 */
import { DataError } from './data-error.ts';

export const readBound = () => Number(process.env.FSM_LIST_READ_BOUND ?? 20_000);

/** A page the read bound does not reach: the filter matches too few of the entries before it. */
export function tooCostly(): DataError {
  return new DataError(
    'too-costly',
    `this page lies beyond the ${readBound()} index entries one request may read: the filter matches too few of them; narrow the list (statuses, a date range, an assignee, a longer search word) or ask an earlier page`,
  );
}
