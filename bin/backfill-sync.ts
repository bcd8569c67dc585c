/**
 * `node bin/backfill-sync.ts`: puts the cases, tours and shifts written before offline sync existed
 * into their holders' sync scopes (shared/maintenance/sync-backfill.ts), on the table named by
 * FSM_TABLE_NAME in AWS_REGION with the credentials of the environment. Safe while the service
 * serves, idempotent, once per workspace: run it once after deploying offline sync
 * (docs/deploy.md). The local stack runs the same backfill at every start.
 */
import { backfillSyncScopes } from '../shared/maintenance/sync-backfill.ts';

if (!process.env.FSM_TABLE_NAME) {
  console.error('backfill: set FSM_TABLE_NAME (and AWS_REGION, credentials) to the environment’s table');
  process.exit(2);
}
const started = Date.now();
await backfillSyncScopes((message) => console.log(`backfill: ${message}`));
console.log(`backfill: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
