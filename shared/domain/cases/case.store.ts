/** Storage of cases. Cases are indexed from their first write: no backfill reads their (unbounded) collection. */
import { resourceStore } from '../../data/resource-store.ts';
import { caseList } from './case.list.ts';
import type { Case } from './case.schema.ts';

export const caseStore = resourceStore<Case>('case', 'CASE', caseList);
