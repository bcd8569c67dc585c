/**
 * The writes a caller asks of the table (`TableWrite`, one kind per rule of what may be
 * overwritten) and the DynamoDB operation each becomes: a Put, Delete or Update with the
 * condition that enforces the kind's rule. Transactions send them as TransactItems; a single
 * write (`writeItem`) sends the same operation on its own.
 */
import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { tableName } from './client.ts';
import { type Key, type StoredRecord, toItem } from './table-item.ts';

export type TableWrite =
  /** Insert; fails with `already-exists` when the key is taken. */
  | { kind: 'create'; key: Key; entity: string; record: StoredRecord; expiresAt?: number }
  /** Replace the whole item; fails with `not-found` or `version-conflict` unless it still has `expectedVersion`. */
  | {
      kind: 'replace';
      key: Key;
      entity: string;
      record: StoredRecord;
      expectedVersion: number;
      expiresAt?: number;
    }
  /** Delete; fails with `not-found`, or `version-conflict` when `expectedVersion` is given and differs. */
  | { kind: 'delete'; key: Key; expectedVersion?: number }
  /** Delete whether or not the item exists (idempotent clean-up). */
  | { kind: 'discard'; key: Key }
  /** Unconditional write (outbox events, idempotent projections). */
  | { kind: 'put'; key: Key; entity: string; record: StoredRecord; expiresAt?: number }
  /**
   * Atomic counter: adds `by` (may be negative) to a number attribute, creating the item if
   * absent; `fields` are set as well (e.g. the id the sort key holds, for lists).
   */
  | {
      kind: 'add';
      key: Key;
      entity: string;
      attribute: string;
      by: number;
      fields?: Record<string, string | number | boolean>;
      /** Further number attributes that move by the same amount (a count that is also an index key). */
      alsoAdd?: readonly string[];
      /**
       * Bookkeeping that writes of different records share (a list's counters and revision, a
       * tag's usage): never an item of the record's own transaction, where two records' writes
       * would meet on it (DynamoDB cancels both), but a change of the transaction's tally,
       * applied right after it commits (tally.ts).
       */
      tally?: true;
      /**
       * Text attributes a tally keeps at their greatest value (a thread's newest comment id):
       * tallies apply in no particular order, so a plain SET could go back (tally.ts).
       */
      greatest?: Record<string, string>;
    }
  /**
   * Set `set` and remove `remove` on an existing item, keeping every other attribute (what other
   * writers own: an instance's links); fails like `replace` unless it still has `expectedVersion`.
   */
  | {
      kind: 'update';
      key: Key;
      set: StoredRecord;
      remove?: readonly string[];
      expectedVersion: number;
    }
  /**
   * Add ids to, or remove ids from, a string-set attribute of an existing item (an instance's
   * links of one relation side); fails with `not-found` when the item is gone. `atMostOne`: the
   * set may hold no other id afterwards (a ONE side), else `version-conflict`.
   */
  | {
      kind: 'link';
      key: Key;
      attribute: string;
      add?: readonly string[];
      remove?: readonly string[];
      atMostOne?: boolean;
    };

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

type WriteOf<K extends TableWrite['kind']> = Extract<TableWrite, { kind: K }>;

/** The operation of one write, conditioned as its kind says. */
export function toTransactItem(write: TableWrite): TransactItem {
  switch (write.kind) {
    case 'create':
      return createItem(write);
    case 'replace':
      return replaceItem(write);
    case 'delete':
      return deleteItem(write);
    case 'put':
      return { Put: { TableName: tableName(), Item: itemOf(write) } };
    case 'discard':
      return { Delete: { TableName: tableName(), Key: write.key } };
    case 'add':
      return addItem(write);
    case 'update':
      return updateItem(write);
    case 'link':
      return linkItem(write);
    default: {
      const exhaustive: never = write;
      return exhaustive;
    }
  }
}

function itemOf(write: WriteOf<'create' | 'replace' | 'put'>): Record<string, unknown> {
  return toItem(write.key, write.entity, write.record, write.expiresAt);
}

/** Attributes set through placeholders: `#f0 = :f0`, with `#f0` → name and `:f0` → value. */
function assignments(prefix: string, entries: ReadonlyArray<readonly [string, unknown]>) {
  return {
    expressions: entries.map((_, i) => `#${prefix}${i} = :${prefix}${i}`),
    names: Object.fromEntries(entries.map(([name], i) => [`#${prefix}${i}`, name])),
    values: Object.fromEntries(entries.map(([, value], i) => [`:${prefix}${i}`, value])),
  };
}

function createItem(write: WriteOf<'create'>): TransactItem {
  return {
    Put: { TableName: tableName(), Item: itemOf(write), ConditionExpression: 'attribute_not_exists(pk)' },
  };
}

function replaceItem(write: WriteOf<'replace'>): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: itemOf(write),
      ConditionExpression: 'lock_version = :expected',
      ExpressionAttributeValues: { ':expected': write.expectedVersion },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

function deleteItem(write: WriteOf<'delete'>): TransactItem {
  const versioned = write.expectedVersion !== undefined;
  return {
    Delete: {
      TableName: tableName(),
      Key: write.key,
      ConditionExpression: versioned ? 'lock_version = :expected' : 'attribute_exists(pk)',
      ...(versioned ? { ExpressionAttributeValues: { ':expected': write.expectedVersion } } : {}),
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

function addItem(write: WriteOf<'add'>): TransactItem {
  const fields = assignments('f', Object.entries(write.fields ?? {}));
  const also = write.alsoAdd ?? [];
  const sets = ['entity = :entity', ...fields.expressions];
  const adds = ['#counter :by', ...also.map((_, i) => `#a${i} :by`)];
  return {
    Update: {
      TableName: tableName(),
      Key: write.key,
      UpdateExpression: `SET ${sets.join(', ')} ADD ${adds.join(', ')}`,
      ExpressionAttributeNames: {
        '#counter': write.attribute,
        ...fields.names,
        ...Object.fromEntries(also.map((name, i) => [`#a${i}`, name])),
      },
      ExpressionAttributeValues: { ':entity': write.entity, ':by': write.by, ...fields.values },
    },
  };
}

function updateItem(write: WriteOf<'update'>): TransactItem {
  const set = assignments('s', Object.entries(write.set));
  const remove = write.remove ?? [];
  return {
    Update: {
      TableName: tableName(),
      Key: write.key,
      UpdateExpression: [
        `SET ${set.expressions.join(', ')}`,
        remove.length ? `REMOVE ${remove.map((_, i) => `#r${i}`).join(', ')}` : '',
      ].join(' '),
      ConditionExpression: 'lock_version = :expected',
      ExpressionAttributeNames: {
        ...set.names,
        ...Object.fromEntries(remove.map((name, i) => [`#r${i}`, name])),
      },
      ExpressionAttributeValues: { ...set.values, ':expected': write.expectedVersion },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

function linkItem(write: WriteOf<'link'>): TransactItem {
  const add = write.add ?? [];
  const remove = write.remove ?? [];
  const parts = [add.length ? 'ADD #links :add' : '', remove.length ? 'DELETE #links :remove' : ''].filter(
    Boolean,
  );
  // A ONE side may hold only the id being added (adding it again is no change).
  const one = write.atMostOne && add.length === 1;
  return {
    Update: {
      TableName: tableName(),
      Key: write.key,
      UpdateExpression: parts.join(' '),
      ConditionExpression: one
        ? 'attribute_exists(pk) AND (attribute_not_exists(#links) OR #links = :add)'
        : 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#links': write.attribute },
      ExpressionAttributeValues: {
        ...(add.length ? { ':add': new Set(add) } : {}),
        ...(remove.length ? { ':remove': new Set(remove) } : {}),
      },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}
