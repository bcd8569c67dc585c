import type { ListSpec } from '../../data/list-index.ts';
import { byCreation, collectionOf } from '../../data/list-patterns.ts';
import type { RunRecord } from './optimization-run.record.ts';
import { runStatuses } from './optimization-run-statuses.ts';

/**
 * Runs by status (segment) and creation: newest first is the creation order walked backwards,
 * `status` one partition of it, so both cost their page and take their total from a counter
 * (shared/data/README.md, "Lists", OPTIMIZATION_RUN). A run moves between status partitions with
 * the write of each move.
 */
export const runList: ListSpec<RunRecord> = {
  name: 'OPTIMIZATION_RUN',
  listed: () => true,
  segment: { values: runStatuses, of: (record) => record.status },
  orders: { created_at: byCreation() },
  basePartition: collectionOf('OPT_RUN'),
};
