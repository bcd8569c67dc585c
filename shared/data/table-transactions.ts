/**
 * Writes that commit together or not at all (one TransactWriteItems call), with the reason a
 * cancelled transaction gives for its first refused write turned into that write's DataError.
 */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from './client.ts';
import { conditionFailure, isContention, retryingContention, translate } from './table-failure.ts';
import { type TableWrite, toTransactItem } from './table-write.ts';

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
  const writes = mergedCounterWrites(requested);
  // A new command (and idempotency token) per attempt: a cancelled transaction wrote nothing.
  await retryingContention('transaction', () => sendTransaction(writes));
}

async function sendTransaction(writes: readonly TableWrite[]): Promise<void> {
  try {
    await dynamo().send(new TransactWriteCommand({ TransactItems: writes.map(toTransactItem) }));
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
