/**
 * `node bin/backfill-lists.ts`: gives the records written before the list indexes existed their
 * index attributes, counters and search tokens (shared/data/backfill.ts), on the table named by
 * FSM_TABLE_NAME in AWS_REGION with the credentials of the environment. Safe while the service
 * serves, idempotent, resumable: run it once after deploying the indexes (docs/deploy.md). The
 * local stack runs the same backfill at every start.
 */
import { backfillLists } from '../shared/maintenance/list-backfill.ts';

if (!process.env.FSM_TABLE_NAME) {
  console.error('backfill: set FSM_TABLE_NAME (and AWS_REGION, credentials) to the environment’s table');
  process.exit(2);
}
const started = Date.now();
const report = await backfillLists((message) => console.log(`backfill: ${message}`));
console.log(
  `backfill: done in ${((Date.now() - started) / 1000).toFixed(1)} s; ${report.raced} records were written ` +
    'meanwhile by the service (and indexed by it)',
);
