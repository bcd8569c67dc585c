/**
 * Which items a DynamoDB request touches, read from its JSON body (DynamoDB JSON, marshalled:
 * `{"pk":{"S":"…"}}`), for the semantics proxy (dynamodb-semantics-proxy.ts). Pure: no I/O, no
 * state. An item's identity is its table and the values of its key attributes, as one string.
 * A body that is not the shape DynamoDB expects yields what can be read of it: DynamoDB Local
 * answers the malformed request itself.
 */

type Json = Record<string, unknown>;
/** BatchWriteItem's `RequestItems` (and `UnprocessedItems`): table name → write requests. */
export type BatchWrites = Record<string, unknown[]>;

/** What the proxy has to look at in a request; everything else passes through. */
export type KeyedRequest =
  /** TransactWriteItems / TransactGetItems: one key per action, in the actions' order. */
  | { kind: 'transaction'; writes: boolean; keys: string[] }
  /** PutItem, UpdateItem, DeleteItem. */
  | { kind: 'single-write'; key: string }
  | { kind: 'batch-write'; requestItems: BatchWrites }
  | { kind: 'other' };

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const objectOr = (value: unknown): Json => (isObject(value) ? value : {});

/**
 * The identity of one item. The marshalled values are compared as JSON: `{"S":"a"}` and
 * `{"N":"1"}` differ as they do in DynamoDB (a number and a string are different keys).
 */
export function itemKey(tableName: unknown, attributes: unknown, keyAttributes: readonly string[]): string {
  const values = keyAttributes.map((name) => objectOr(attributes)[name] ?? null);
  return JSON.stringify([typeof tableName === 'string' ? tableName : null, ...values]);
}

/** The operation of a DynamoDB JSON request (`X-Amz-Target: DynamoDB_20120810.PutItem`), if one. */
export function dynamoDbOperation(target: string | undefined): string | undefined {
  const match = /^DynamoDB_20120810\.(\w+)$/.exec(target ?? '');
  return match?.[1];
}

export function keyedRequest(
  operation: string | undefined,
  body: unknown,
  keyAttributes: readonly string[],
): KeyedRequest {
  const request = objectOr(body);
  const key = (tableName: unknown, attributes: unknown) => itemKey(tableName, attributes, keyAttributes);
  switch (operation) {
    case 'TransactWriteItems':
      return { kind: 'transaction', writes: true, keys: transactItems(request).map(writeActionKey(key)) };
    case 'TransactGetItems':
      return {
        kind: 'transaction',
        writes: false,
        keys: transactItems(request).map((item) => {
          const get = objectOr(item.Get);
          return key(get.TableName, get.Key);
        }),
      };
    case 'PutItem':
      return { kind: 'single-write', key: key(request.TableName, request.Item) };
    case 'UpdateItem':
    case 'DeleteItem':
      return { kind: 'single-write', key: key(request.TableName, request.Key) };
    case 'BatchWriteItem':
      return { kind: 'batch-write', requestItems: asBatchWrites(request.RequestItems) };
    default:
      return { kind: 'other' };
  }
}

function transactItems(request: Json): Json[] {
  return Array.isArray(request.TransactItems) ? request.TransactItems.map(objectOr) : [];
}

/** A Put names its item whole; Update, Delete and ConditionCheck name its key. */
const writeActionKey =
  (key: (tableName: unknown, attributes: unknown) => string) =>
  (action: Json): string => {
    if (isObject(action.Put)) return key(action.Put.TableName, action.Put.Item);
    const keyed = objectOr(action.Update ?? action.Delete ?? action.ConditionCheck);
    return key(keyed.TableName, keyed.Key);
  };

/** `RequestItems` or `UnprocessedItems` as read from a body: a table's requests always a list. */
export function asBatchWrites(requestItems: unknown): BatchWrites {
  const tables: BatchWrites = {};
  for (const [tableName, requests] of Object.entries(objectOr(requestItems))) {
    tables[tableName] = Array.isArray(requests) ? requests : [];
  }
  return tables;
}

/** The item a BatchWriteItem request (`{PutRequest:{Item}}` or `{DeleteRequest:{Key}}`) writes. */
export function batchRequestKey(
  tableName: string,
  request: unknown,
  keyAttributes: readonly string[],
): string {
  const { PutRequest, DeleteRequest } = objectOr(request);
  if (isObject(PutRequest)) return itemKey(tableName, PutRequest.Item, keyAttributes);
  return itemKey(tableName, objectOr(DeleteRequest).Key, keyAttributes);
}

/**
 * Splits a BatchWriteItem's requests into those to forward and those held back (their item is
 * held); tables left with no request are left out, as DynamoDB refuses an empty list.
 */
export function splitBatchWrites(
  requestItems: BatchWrites,
  isHeld: (key: string) => boolean,
  keyAttributes: readonly string[],
): { forward: BatchWrites; heldBack: BatchWrites } {
  const forward: BatchWrites = {};
  const heldBack: BatchWrites = {};
  for (const [tableName, requests] of Object.entries(requestItems)) {
    for (const request of requests) {
      const into = isHeld(batchRequestKey(tableName, request, keyAttributes)) ? heldBack : forward;
      into[tableName] ??= [];
      into[tableName].push(request);
    }
  }
  return { forward, heldBack };
}

/** Two sets of unprocessed items as one (DynamoDB's own first, then those held back). */
export function mergeBatchWrites(first: BatchWrites, second: BatchWrites): BatchWrites {
  const merged: BatchWrites = { ...first };
  for (const [tableName, requests] of Object.entries(second)) {
    merged[tableName] = [...(merged[tableName] ?? []), ...requests];
  }
  return merged;
}

export const countBatchWrites = (items: BatchWrites): number =>
  Object.values(items).reduce((sum, requests) => sum + requests.length, 0);

/** An item a write names: its table and the attributes it was named by (a Put's item, else a key). */
export interface WrittenItem {
  tableName: string;
  attributes: Json;
}

/**
 * The items a write changes if it succeeds, for the index lag (dynamodb-index-lag.ts): PutItem,
 * UpdateItem, DeleteItem, every request of a BatchWriteItem, the Put, Update and Delete actions
 * of a TransactWriteItems (a ConditionCheck writes nothing). Empty for anything else.
 */
export function writtenItems(operation: string | undefined, body: unknown): WrittenItem[] {
  const request = objectOr(body);
  const named = (tableName: unknown, attributes: unknown): WrittenItem[] =>
    typeof tableName === 'string' && isObject(attributes) ? [{ tableName, attributes }] : [];
  switch (operation) {
    case 'PutItem':
      return named(request.TableName, request.Item);
    case 'UpdateItem':
    case 'DeleteItem':
      return named(request.TableName, request.Key);
    case 'BatchWriteItem':
      return Object.entries(asBatchWrites(request.RequestItems)).flatMap(([tableName, requests]) =>
        requests.flatMap((one) => {
          const { PutRequest, DeleteRequest } = objectOr(one);
          return isObject(PutRequest)
            ? named(tableName, PutRequest.Item)
            : named(tableName, objectOr(DeleteRequest).Key);
        }),
      );
    case 'TransactWriteItems':
      return transactItems(request).flatMap((action) => {
        if (isObject(action.Put)) return named(action.Put.TableName, action.Put.Item);
        const keyed = objectOr(action.Update ?? action.Delete);
        return named(keyed.TableName, keyed.Key);
      });
    default:
      return [];
  }
}

/** A Query or Scan of an index (`IndexName`): which table and index it reads, else undefined. */
export function indexRead(
  operation: string | undefined,
  body: unknown,
): { tableName: string; indexName: string } | undefined {
  if (operation !== 'Query' && operation !== 'Scan') return undefined;
  const { TableName, IndexName } = objectOr(body);
  return typeof TableName === 'string' && typeof IndexName === 'string'
    ? { tableName: TableName, indexName: IndexName }
    : undefined;
}

/**
 * A PartiQL request that may write: any statement of ExecuteStatement, BatchExecuteStatement or
 * ExecuteTransaction that is not a SELECT. Its items are not read from the statement text.
 */
export function partiqlWrite(operation: string | undefined, body: unknown): boolean {
  const request = objectOr(body);
  const statements = (list: unknown): unknown[] =>
    Array.isArray(list) ? list.map((entry) => objectOr(entry).Statement) : [];
  const texts =
    operation === 'ExecuteStatement'
      ? [request.Statement]
      : operation === 'BatchExecuteStatement'
        ? statements(request.Statements)
        : operation === 'ExecuteTransaction'
          ? statements(request.TransactStatements)
          : [];
  return texts.some((text) => typeof text !== 'string' || !/^\s*select\b/i.test(text));
}
