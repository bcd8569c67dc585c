/**
 * A test switch, off unless FSM_RECORD_TRANSACTIONS names a file: a middleware on the DynamoDB
 * client (client.ts) that appends one JSON line to that file for every write that succeeded, so
 * a test can see which items each transaction wrote (test/contract/transaction-keys.test.ts: no
 * item is written by the transactions of two different records, since on DynamoDB such an item
 * makes concurrent writes of unrelated records cancel each other).
 *
 * A line is a `RecordedWrite`: each item's operation and key, the `entity` a Put stores (or an
 * Update sets), whether an Update adds to a number (a counter), and the subject of each outbox
 * event the transaction carries (outbox.ts). Single-item writes (PutItem, UpdateItem, DeleteItem)
 * are recorded as well, flagged `single`: a plain write to an item a transaction holds is refused
 * too. The line is written synchronously (appendFileSync) after DynamoDB answered: one small
 * append per write, for a test run only.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

export const recordTransactionsVariable = 'FSM_RECORD_TRANSACTIONS';

export type RecordedOperation = 'Put' | 'Update' | 'Delete' | 'ConditionCheck';

export interface RecordedItem {
  op: RecordedOperation;
  pk: string;
  sk: string;
  /** The `entity` attribute a Put stores, or an Update sets (`SET entity = :entity`). */
  entity?: string;
  /** An Update that adds to a number attribute (`ADD`): a counter. */
  add?: true;
}

/** The subject of an outbox event: the resource it names (`resource.type`, `resource.id`). */
export interface RecordedEvent {
  type: string;
  resource_type: string;
  resource_id: string;
}

export interface RecordedWrite {
  command: 'TransactWriteItems' | 'PutItem' | 'UpdateItem' | 'DeleteItem';
  /** A single-item write (not a transaction); `conditional` when it carried a condition. */
  single?: true;
  conditional?: boolean;
  items: RecordedItem[];
  /** The outbox events among the items (Puts of entity `event`), in the transaction's order. */
  events: RecordedEvent[];
}

/**
 * A line the test stack adds itself (test/support/global-setup.ts): `ready` once the service has
 * started, so the writes of its start (the seed, all at once and before any request) can be told
 * apart from the traffic after it.
 */
export interface RecordingMark {
  mark: 'ready';
}

export type RecordingLine = RecordedWrite | RecordingMark;

type Operation = {
  Key?: Record<string, unknown>;
  Item?: Record<string, unknown>;
  UpdateExpression?: string;
  ConditionExpression?: string;
  ExpressionAttributeValues?: Record<string, unknown>;
};

/** Keys and values are plain with the document client; `{ S: … }` if a raw command is sent. */
function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  const s = (value as { S?: unknown } | undefined)?.S;
  return typeof s === 'string' ? s : undefined;
}

function recordedItem(op: RecordedOperation, operation: Operation): RecordedItem {
  const key = operation.Item ?? operation.Key ?? {};
  const item: RecordedItem = { op, pk: text(key.pk) ?? '', sk: text(key.sk) ?? '' };
  if (op === 'Put') {
    const entity = text(operation.Item?.entity);
    if (entity) item.entity = entity;
  }
  if (op === 'Update') {
    const expression = operation.UpdateExpression ?? '';
    const setsEntity = /(^|[\s,])entity\s*=\s*(:\w+)/.exec(expression);
    const entity = setsEntity?.[2] ? text(operation.ExpressionAttributeValues?.[setsEntity[2]]) : undefined;
    if (entity) item.entity = entity;
    if (/(^|\s)ADD\s/.test(expression)) item.add = true;
  }
  return item;
}

function eventOf(operation: Operation): RecordedEvent | undefined {
  if (text(operation.Item?.entity) !== 'event') return undefined;
  const event = operation.Item?.event as
    | { type?: unknown; resource?: { type?: unknown; id?: unknown } }
    | undefined;
  return {
    type: text(event?.type) ?? '',
    resource_type: text(event?.resource?.type) ?? '',
    resource_id: text(event?.resource?.id) ?? '',
  };
}

const operations: RecordedOperation[] = ['Put', 'Update', 'Delete', 'ConditionCheck'];
const singleOperations = { PutItem: 'Put', UpdateItem: 'Update', DeleteItem: 'Delete' } as const;

/** What a write command's input wrote, or undefined for any other command. */
export function recordedWrite(commandName: string, input: unknown): RecordedWrite | undefined {
  const name = commandName.replace(/Command$/, '');
  if (name === 'TransactWriteItems') {
    const transactItems = (input as { TransactItems?: Array<Record<string, Operation>> }).TransactItems ?? [];
    const items: RecordedItem[] = [];
    const events: RecordedEvent[] = [];
    for (const transactItem of transactItems) {
      const op = operations.find((candidate) => transactItem[candidate]);
      if (!op) continue;
      const operation = transactItem[op] as Operation;
      items.push(recordedItem(op, operation));
      const event = op === 'Put' ? eventOf(operation) : undefined;
      if (event) events.push(event);
    }
    return { command: name, items, events };
  }
  if (name === 'PutItem' || name === 'UpdateItem' || name === 'DeleteItem') {
    const operation = input as Operation;
    const event = name === 'PutItem' ? eventOf(operation) : undefined;
    return {
      command: name,
      single: true,
      conditional: Boolean(operation.ConditionExpression),
      items: [recordedItem(singleOperations[name], operation)],
      events: event ? [event] : [],
    };
  }
  return undefined;
}

/** Appends a line; a recording must never fail a write (a folder removed meanwhile is made again). */
function append(file: string, line: string): void {
  try {
    appendFileSync(file, line);
  } catch {
    try {
      mkdirSync(dirname(file), { recursive: true });
      appendFileSync(file, line);
    } catch {
      // Not recorded: the test reading the file sees fewer writes, the service none of this.
    }
  }
}

/**
 * The middleware that records into `file` (appended to, its folder made when missing, so the
 * caller empties it when a run starts). Only writes DynamoDB accepted are recorded.
 */
export function transactionRecorder(file: string) {
  return <Args extends { input: unknown }, Result>(
    next: (args: Args) => Promise<Result>,
    context: { commandName?: string },
  ) =>
    async (args: Args): Promise<Result> => {
      let recorded: RecordedWrite | undefined;
      try {
        recorded = recordedWrite(context.commandName ?? '', args.input);
      } catch {
        // An input of a shape the recorder does not know: not recorded, sent as it is.
      }
      const result = await next(args);
      if (recorded) append(file, `${JSON.stringify(recorded)}\n`);
      return result;
    };
}
