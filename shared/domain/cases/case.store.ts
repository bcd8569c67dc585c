/**
 * Storage of cases. Cases are indexed from their first write: no backfill reads their (unbounded)
 * collection. Every write also moves the case's items of the due-time index (case-due-index.ts),
 * whichever path writes it (the case API, bookings, applied plans, the service-level detector).
 */
import { resourceStore } from '../../data/resource-store.ts';
import { caseList } from './case.list.ts';
import type { Case } from './case.schema.ts';
import { dueIndexWrites } from './case-due-index.ts';

export const caseStore = resourceStore<Case>('case', 'CASE', caseList, { alongside: dueIndexWrites });
