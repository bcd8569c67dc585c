/**
 * Writing generated cases, many to a transaction: each case with its `case.created` event and its
 * occurrence claim, up to `casesPerTransaction` cases (of any plans of one workspace) in one
 * TransactWriteItems. Fewer, larger transactions: DynamoDB Local serialises transactions (one
 * case a transaction made ~20 cases/s there, twenty ~140/s), and on DynamoDB each costs a round
 * trip. A claim another generator took cancels its whole transaction: those cases are then
 * written one transaction each, and only the taken occurrence is passed over. Exactly one case
 * per occurrence holds either way: a case is never written without its claim.
 */
import { DataError } from '../../data/data-error.ts';
import { type TableWrite, transactWrite } from '../../data/table.ts';
import { systemEvent } from '../../events/domain-event.ts';
import { caseStore } from '../cases/case.store.ts';
import { generatedCase } from './generated-case.ts';
import type { MaintenancePlan } from './maintenance-plan.schema.ts';
import { generationStore } from './maintenance-plan.store.ts';

/**
 * 10 cases: 3 items each and their merged tally, well within 100 items and 4 MB, and short enough
 * for the data layer's 2 s per attempt on a busy DynamoDB Local (20 sometimes ran out of it).
 */
export const casesPerTransaction = Number(process.env.FSM_MAINTENANCE_CASES_PER_TRANSACTION ?? 10);

export interface PendingCase {
  plan: MaintenancePlan;
  occurrence: string;
}

export interface CaseWriteOutcome {
  created: number;
  /** Occurrences another generator claimed first. */
  lost: number;
}

/** The claims of a batch, then its cases: the batch is the generator's write, not one case's. */
function writesOf(workspaceId: string, batch: readonly PendingCase[]): TableWrite[] {
  const claims: TableWrite[] = [];
  const cases: TableWrite[] = [];
  for (const pending of batch) {
    const record = generatedCase(pending.plan, pending.occurrence);
    const event = systemEvent(workspaceId, 'case.created', { type: 'case', id: record.id }, record);
    claims.push(generationStore.of(workspaceId).claim(pending.plan.id, pending.occurrence, record.id));
    cases.push(...caseStore.of(workspaceId).writes.create(record, event));
  }
  return [...claims, ...cases];
}

const claimTaken = (error: unknown) => error instanceof DataError && error.code === 'already-exists';

/** Writes one batch of cases; a taken claim sends them again one by one. */
export async function writeCaseBatch(
  workspaceId: string,
  batch: readonly PendingCase[],
): Promise<CaseWriteOutcome> {
  try {
    await transactWrite(writesOf(workspaceId, batch));
    return { created: batch.length, lost: 0 };
  } catch (error) {
    if (!claimTaken(error) || batch.length === 1) {
      if (claimTaken(error)) return { created: 0, lost: 1 };
      throw error;
    }
  }
  const outcome: CaseWriteOutcome = { created: 0, lost: 0 };
  for (const pending of batch) {
    const one = await writeCaseBatch(workspaceId, [pending]);
    outcome.created += one.created;
    outcome.lost += one.lost;
  }
  return outcome;
}
