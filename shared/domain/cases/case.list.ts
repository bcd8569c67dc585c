import type { ListSpec } from '../../data/list-index.ts';
import { byChange, byCreation, collectionOf, text } from '../../data/list-patterns.ts';
import type { Case } from './case.schema.ts';
import { casePriorities, caseStatuses } from './case-enums.ts';

/** A case's priority ranks above its creation time (ms, below 10^13 until the year 2286). */
const priorityPlace = 1e13;

/**
 * Cases (work orders) grow without bound, so every filter and sort key is an index, a segment,
 * a facet or a counter (README.md, "Lists", the CASE rows): status is the segment and its own
 * order (the segments one after another, each by creation); priority a numeric key (rank, then
 * creation time); an assignee's cases a facet (by creation, the default order); an area's a
 * counter, and so is a service level (sla_status). `listedValues` carries what filters and further
 * sort keys read from the entries.
 */
export const caseList: ListSpec<Case> = {
  name: 'CASE',
  listed: () => true,
  segment: { values: caseStatuses, of: (record) => record.status },
  orders: {
    title: { pattern: 'byTitle', index: 'gsi1', key: text('title') },
    status: {
      pattern: 'byStatus',
      index: 'gsi4',
      key: (record) => [String(caseStatuses.indexOf(record.status))],
      segmentOrder: { within: 'created_at' },
    },
    priority: {
      pattern: 'byPriority',
      index: 'gsi6',
      key: (record) =>
        casePriorities.indexOf(record.priority) * priorityPlace + Date.parse(String(record.created_at)),
      leading: (key) => Math.floor(key / priorityPlace),
    },
    // Cases without a window last (ascending).
    scheduled_start: {
      pattern: 'bySchedule',
      index: 'gsi3',
      key: (record) => [record.scheduled_start ?? '\u{10FFFF}'],
    },
    created_at: byCreation(),
    updated_at: byChange(),
  },
  facets: { assignee_id: { index: 'gsi2', order: 'created_at', of: (record) => record.assignee_id } },
  counters: (record) => [
    ...(record.area_id ? [`area_id=${record.area_id}`] : []),
    ...(record.sla_status ? [`sla_status=${record.sla_status}`] : []),
  ],
  listedValues: (record) => ({
    title: record.title,
    priority: record.priority,
    area_id: record.area_id,
    scheduled_start: record.scheduled_start,
    scheduled_end: record.scheduled_end,
    // What planning checks on the entries (case-planning.ts `planningCandidates`).
    located: record.location ? 1 : 0,
    windows_from: record.time_windows?.[0]?.start,
    windows_to: record.time_windows?.at(-1)?.end,
    // The service level filter (case-list.ts), counted per status by `sla_status=<value>`.
    sla_status: record.sla_status,
  }),
  basePartition: collectionOf('CASE'),
};
