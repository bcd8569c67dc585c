/**
 * GET /api/v2/cases through the list indexes of the cases (case.list.ts `caseList`): a page
 * costs about its page, never the collection. Filters combine with AND; the values of
 * `statuses` with OR. How each query is served (shared/data/README.md, "Lists", has
 * the costs):
 *
 * - `statuses` is the index segment: each status is a partition of its own; several merge.
 * - every sort key is an index (status: the segments one after another; priority: a numeric
 *   index); further sort keys order the ties of the first in memory.
 * - `assignee_id`, and the caller's own id for field workers (case-visibility.ts), is a facet:
 *   the assignee's own index partitions, in creation order, with a counter per status. Another
 *   sort key orders the assignee's cases in memory (it reads all of them).
 * - `area_id` is checked on the index entries; its total is a counter (per status and area), so
 *   the walk reads about size ÷ (the area's share) entries.
 * - `sla_status` is checked on the index entries like `area_id`; its total is a counter (per status
 *   and service level, `slaCounter`), so the statuses without such cases are not walked and the walk
 *   reads about size ÷ (its share) entries. With the area too, both are checked and the walk counts.
 * - `updated_from`/`updated_to` bound a key range of the updated_at index; its total is a count
 *   of the range. Sorted by another key, the range is ordered in memory.
 * - `scheduled_from`/`scheduled_to` are checked on the entries, `scheduled_to` also bounds a key
 *   range of the scheduled_start index when no updated range is asked for (a window starting
 *   before `scheduled_to`); the total is a count of what was walked.
 * - with the assignee facet, the other filters are checked on the assignee's entries.
 */
import type { ListOrder, ListRequest } from '../../data/list-read.ts';
import type { StoredRecord } from '../../data/table.ts';
import { type CaseListQueryInput, caseStatuses } from './case.schema.ts';

/** Newest first: what a dispatcher opens the list for. */
export const defaultCaseOrder: readonly ListOrder[] = [{ field: 'created_at', direction: 'desc' }];

/** The name of the assignee facet and of its counters (case.list.ts `caseList`). */
export const assigneeFacet = 'assignee_id';

/** The counter of an area's cases within a status (case.list.ts `caseList.counters`). */
export const areaCounter = (areaId: string) => `area_id=${areaId}`;

/** The counter of a service level's cases within a status (case.list.ts `caseList.counters`). */
export const slaCounter = (slaStatus: string) => `sla_status=${slaStatus}`;

type Entry = StoredRecord & {
  area_id?: string;
  sla_status?: string;
  scheduled_start?: string;
  scheduled_end?: string;
  updated_at?: string;
};

/** What a page request of the cases needs besides its scope, page and size. */
export type CaseListPlan = Omit<ListRequest, 'scope' | 'page' | 'size'>;

/** The instant one millisecond before: an exclusive bound as the inclusive one a key range takes. */
function justBefore(instant: string): string {
  return new Date(Date.parse(instant) - 1).toISOString();
}

/**
 * How a query is served; undefined when it can match nothing (a field worker asking for
 * someone else's cases).
 */
export function caseListPlan(
  query: CaseListQueryInput,
  assigneeScope: string | undefined,
): CaseListPlan | undefined {
  if (assigneeScope && query.assignee_id && query.assignee_id !== assigneeScope) return undefined;
  const assignee = assigneeScope ?? query.assignee_id;
  const order = query.sort?.length ? query.sort : defaultCaseOrder;
  const wanted = new Set(query.statuses ?? []);
  const segments = wanted.size > 0 ? caseStatuses.filter((status) => wanted.has(status)) : undefined;

  const checks: Array<(entry: Entry) => boolean> = [];
  const area = query.area_id;
  if (area) checks.push((entry) => entry.area_id === area);
  const sla = query.sla_status;
  if (sla) checks.push((entry) => entry.sla_status === sla);

  const { updated_from: updatedFrom, updated_to: updatedTo } = query;
  const { scheduled_from: scheduledFrom, scheduled_to: scheduledTo } = query;
  const updatedRange = !assignee && (updatedFrom !== undefined || updatedTo !== undefined);
  const scheduledRange = !assignee && !updatedRange && scheduledTo !== undefined;
  if (!updatedRange) {
    if (updatedFrom) checks.push((entry) => String(entry.updated_at) >= updatedFrom);
    if (updatedTo) checks.push((entry) => String(entry.updated_at) < updatedTo);
  }
  if (scheduledFrom !== undefined || scheduledTo !== undefined) {
    checks.push((entry) => entry.scheduled_start !== undefined && entry.scheduled_end !== undefined);
    if (scheduledFrom) checks.push((entry) => String(entry.scheduled_end) > scheduledFrom);
    if (scheduledTo) checks.push((entry) => String(entry.scheduled_start) < scheduledTo);
  }

  return {
    order,
    ...(segments ? { segments } : {}),
    ...(assignee ? { facet: { name: assigneeFacet, value: assignee } } : {}),
    ...(updatedRange
      ? {
          walk: 'updated_at',
          range: {
            ...(updatedFrom ? { from: updatedFrom } : {}),
            ...(updatedTo ? { to: justBefore(updatedTo) } : {}),
          },
        }
      : {}),
    ...(scheduledRange && scheduledTo
      ? { walk: 'scheduled_start', range: { to: justBefore(scheduledTo) } }
      : {}),
    ...(checks.length > 0
      ? {
          where: (entry: Entry) => checks.every((check) => check(entry)),
          // What the checks test, for what the list keeps between requests (data/list-cache.ts).
          filterKey: JSON.stringify([
            area,
            updatedRange ? [] : [updatedFrom, updatedTo],
            scheduledFrom,
            scheduledTo,
            // Appended, so the kept state of queries without it keeps its key.
            ...(sla ? [sla] : []),
          ]),
        }
      : {}),
    // The area or the service level alone: its counter counts exactly what the check keeps (a
    // range is counted).
    ...(checks.length === 1 && !assignee && !updatedRange && (area || sla)
      ? { countedBy: area ? areaCounter(area) : slaCounter(sla ?? '') }
      : {}),
  };
}
