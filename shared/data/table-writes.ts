/**
 * Writes of the single table outside transactions: single puts and deletes, batches of them,
 * counters, one-time attribute removals, and one conditional write on its own (`writeItem`,
 * the same rules and DataError codes as a transaction of one). An outage is `unavailable`.
 */
import { BatchWriteCommand, DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from './client.ts';
import {
  conditionFailure,
  isConditionFailure,
  isContention,
  retryingContention,
  translate,
} from './table-failure.ts';
import { isExpired, type Key, type StoredRecord, toItem } from './table-item.ts';
import { type TableWrite, toTransactItem } from './table-write.ts';

/** A single unconditional put, for projections written by stream consumers. */
export async function putRecord(
  key: Key,
  entity: string,
  record: StoredRecord,
  expiresAt?: number,
): Promise<void> {
  try {
    await dynamo().send(
      new PutCommand({ TableName: tableName(), Item: toItem(key, entity, record, expiresAt) }),
    );
  } catch (error) {
    translate(error, 'put');
  }
}

/** Items per BatchWriteItem call (DynamoDB's limit) and such calls in flight at once. */
const batchWriteLimit = 25;
const batchWritesInFlight = 4;

/**
 * Unconditional puts of many items (projections a stream consumer writes for a whole batch):
 * BatchWriteItem calls of 25, four in flight, the items DynamoDB leaves unprocessed sent again
 * after a pause. One call per 25 items instead of 25: what lets the outbox consumers keep up
 * with a busy table. Keys must be distinct within one call.
 */
export async function putRecords(
  items: ReadonlyArray<{ key: Key; entity: string; record: StoredRecord; expiresAt?: number }>,
): Promise<void> {
  await batchWrite(
    items.map(({ key, entity, record, expiresAt }) => ({
      PutRequest: { Item: toItem(key, entity, record, expiresAt) },
    })),
    'batch write',
  );
}

/**
 * Deletes of many items (a device's telemetry history): BatchWriteItem calls of 25, four in
 * flight, unprocessed keys sent again after a pause. Missing items are no error.
 */
export async function discardRecords(keysToDelete: readonly Key[]): Promise<void> {
  await batchWrite(
    keysToDelete.map((key) => ({ DeleteRequest: { Key: key } })),
    'batch delete',
  );
}

/**
 * Write requests (PutRequest / DeleteRequest) in BatchWriteItem calls of 25, four in flight, the
 * ones DynamoDB leaves unprocessed sent again after a pause: what putRecords and discardRecords share.
 */
async function batchWrite(requests: ReadonlyArray<Record<string, unknown>>, what: string): Promise<void> {
  const chunks: Array<Array<Record<string, unknown>>> = [];
  for (let start = 0; start < requests.length; start += batchWriteLimit) {
    chunks.push(requests.slice(start, start + batchWriteLimit));
  }
  const writeChunk = async (chunk: Array<Record<string, unknown>>) => {
    let pending = chunk;
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 20 * 2 ** attempt)));
      const { UnprocessedItems } = await dynamo().send(
        new BatchWriteCommand({ RequestItems: { [tableName()]: pending as never } }),
      );
      pending = (UnprocessedItems?.[tableName()] ?? []) as Array<Record<string, unknown>>;
      if (attempt > 8 && pending.length > 0)
        throw Object.assign(new Error('items left unprocessed'), { name: 'ThrottlingException' });
    }
  };
  try {
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(batchWritesInFlight, chunks.length) }, async () => {
        while (next < chunks.length) await writeChunk(chunks[next++] ?? []);
      }),
    );
  } catch (error) {
    translate(error, what);
  }
}

/**
 * Atomically add `by` to a counter and return its new value (one UpdateItem). With
 * `expiresAt`, an item created by this call expires then; later increments keep that expiry,
 * so the counter covers a fixed window that starts with its first increment.
 */
export async function incrementCounter(
  key: Key,
  entity: string,
  attribute: string,
  by: number,
  expiresAt?: number,
): Promise<number> {
  try {
    const { Attributes } = await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: expiresAt
          ? 'SET entity = :entity, expires_at = if_not_exists(expires_at, :expires) ADD #counter :by'
          : 'SET entity = :entity ADD #counter :by',
        ExpressionAttributeNames: { '#counter': attribute },
        ExpressionAttributeValues: {
          ':entity': entity,
          ':by': by,
          ...(expiresAt ? { ':expires': expiresAt } : {}),
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    // An expired window that the sweeper has not removed yet starts over.
    if (Attributes && isExpired(Attributes)) {
      await deleteRecord(key);
      return incrementCounter(key, entity, attribute, by, expiresAt);
    }
    return Number(Attributes?.[attribute] ?? 0);
  } catch (error) {
    return translate(error, 'increment');
  }
}

/**
 * Remove attributes of an item only while `attribute` still holds `equals` (one conditional
 * UpdateItem): how a one-time value is spent exactly once. False when it no longer matches.
 */
export async function removeAttributesIf(
  key: Key,
  attributes: readonly string[],
  condition: { attribute: string; equals: string },
): Promise<boolean> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: `REMOVE ${attributes.map((_, i) => `#r${i}`).join(', ')}`,
        ConditionExpression: '#c = :c',
        ExpressionAttributeNames: {
          '#c': condition.attribute,
          ...Object.fromEntries(attributes.map((name, i) => [`#r${i}`, name])),
        },
        ExpressionAttributeValues: { ':c': condition.equals },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    return translate(error, 'update');
  }
}

/**
 * Set attributes of an item that exists and does not carry `list_v` yet, copying one number
 * attribute into another in the same update (`SET gsi6sk = count`): how backfill.ts indexes a
 * counter item atomically, whatever ADDs run beside it. False when the condition fails.
 */
export async function indexExistingItem(
  key: Key,
  fields: Record<string, string | number>,
  copy?: { from: string; to: string },
): Promise<boolean> {
  const entries = Object.entries(fields);
  const sets = entries.map((_, i) => `#f${i} = :f${i}`);
  if (copy) sets.push('#to = if_not_exists(#from, :zero)');
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(list_v)',
        ExpressionAttributeNames: {
          ...Object.fromEntries(entries.map(([name], i) => [`#f${i}`, name])),
          ...(copy ? { '#to': copy.to, '#from': copy.from } : {}),
        },
        ExpressionAttributeValues: {
          ...Object.fromEntries(entries.map(([, value], i) => [`:f${i}`, value])),
          ...(copy ? { ':zero': 0 } : {}),
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    return translate(error, 'update');
  }
}

/** Delete one item, unconditionally (idempotent). */
export async function deleteRecord(key: Key): Promise<void> {
  try {
    await dynamo().send(new DeleteCommand({ TableName: tableName(), Key: key }));
  } catch (error) {
    translate(error, 'delete');
  }
}

/**
 * One conditional write on its own (PutItem / DeleteItem / UpdateItem, no transaction): half the
 * cost of a transaction of one, for hot single-item paths (telemetry intake). The same DataError
 * codes as `transactWrite`.
 */
export async function writeItem(write: TableWrite): Promise<void> {
  await retryingContention('write', () => sendWrite(write));
}

async function sendWrite(write: TableWrite): Promise<void> {
  const item = toTransactItem(write);
  try {
    if (item.Put) await dynamo().send(new PutCommand(item.Put as never));
    else if (item.Delete) await dynamo().send(new DeleteCommand(item.Delete as never));
    else if (item.Update) await dynamo().send(new UpdateCommand(item.Update as never));
  } catch (error) {
    if (isConditionFailure(error))
      throw conditionFailure(write.kind, (error as { Item?: unknown }).Item, error);
    if (isContention(error)) throw error;
    translate(error, 'write');
  }
}
