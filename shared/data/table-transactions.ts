/**
 * Writes that commit together or not at all (one TransactWriteItems call), with the reason a
 * cancelled transaction gives for its first refused write turned into that write's DataError.
 */
import { randomUUID } from 'node:crypto';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from './client.ts';
import { conditionFailure, isContention, retryingContention, translate } from './table-failure.ts';
import { type TableWrite, toTransactItem } from './table-write.ts';
import { settleTally, tallied } from './tally.ts';
import { riderFor } from './transaction-rider.ts';

/**
 * Counter changes of one transaction merged per item: DynamoDB refuses two operations on one
 * item in a transaction, and several records of one write (an ownership transfer, a seed) can
 * move the same counter. Changes that cancel out are dropped.
 */
export function mergedCounterWrites(writes: readonly TableWrite[]): TableWrite[] {
  const merged: TableWrite[] = [];
  const adds = new Map<string, Extract<TableWrite, { kind: 'add' }>>();
  for (const write of writes) {
    if (write.kind !== 'add') {
      merged.push(write);
      continue;
    }
    const id = `${write.key.pk}\u0000${write.key.sk}\u0000${write.attribute}`;
    const seen = adds.get(id);
    if (seen) {
      seen.by += write.by;
      if (write.fields) seen.fields = { ...seen.fields, ...write.fields };
      for (const [name, value] of Object.entries(write.greatest ?? {})) {
        const kept = seen.greatest?.[name];
        if (kept === undefined || kept < value) seen.greatest = { ...seen.greatest, [name]: value };
      }
    } else {
      const copy = { ...write };
      adds.set(id, copy);
      merged.push(copy);
    }
  }
  return merged.filter(
    (write) => write.kind !== 'add' || write.by !== 0 || Object.keys(write.fields ?? {}).length > 0,
  );
}

/** All writes commit together or not at all (one TransactWriteItems call). */
export async function transactWrite(requested: readonly TableWrite[]): Promise<void> {
  // Shared counters leave the transaction for its tally, applied once it committed (tally.ts).
  const carried = riderFor(requested);
  const { writes, tally } = tallied(
    mergedCounterWrites(carried ? [...requested, ...carried.writes] : requested),
  );
  // One idempotency token for every attempt: an attempt whose answer was lost (a timeout) may
  // have committed, and DynamoDB answers the same token with that success instead of running it
  // again (which would fail its own conditions: a false 409); an attempt that was cancelled
  // wrote nothing, and the same token runs it anew. Valid for 10 minutes, far beyond the retries.
  const token = randomUUID();
  await retryingContention('transaction', () => sendTransaction(writes, token));
  if (carried) carried.rider.spent = true;
  if (tally) await settleTally(tally);
}

async function sendTransaction(writes: readonly TableWrite[], token: string): Promise<void> {
  try {
    await dynamo().send(
      new TransactWriteCommand({ TransactItems: writes.map(toTransactItem), ClientRequestToken: token }),
    );
  } catch (error) {
    const failure = error as {
      name?: string;
      CancellationReasons?: Array<{ Code?: string; Item?: unknown }>;
    };
    if (failure.name === 'TransactionCanceledException' && failure.CancellationReasons) {
      // A refused condition is the answer, whatever else met another transaction: only it is a 409.
      failure.CancellationReasons.forEach((reason, index) => {
        const write = writes[index];
        if (write && reason.Code === 'ConditionalCheckFailed') {
          throw conditionFailure(write.kind, reason.Item, error);
        }
      });
    }
    if (isContention(error)) throw error;
    translate(error, 'transaction');
  }
}
