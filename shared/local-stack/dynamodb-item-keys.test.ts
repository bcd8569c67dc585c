/**
 * The item bookkeeping of the semantics proxy: which items a request touches, read from its
 * DynamoDB JSON body. Pure, no DynamoDB Local needed (it lives under shared/local-stack, so it
 * runs in the integration project).
 */
import { describe, expect, it } from 'vitest';
import {
  dynamoDbOperation,
  indexRead,
  itemKey,
  keyedRequest,
  mergeBatchWrites,
  partiqlWrite,
  splitBatchWrites,
  writtenItems,
} from './dynamodb-item-keys.ts';

const keyAttributes = ['pk', 'sk'];
const key = (table: string, pk: string, sk: string) =>
  itemKey(table, { pk: { S: pk }, sk: { S: sk } }, keyAttributes);
const item = (pk: string, sk: string, extra: Record<string, unknown> = {}) => ({
  pk: { S: pk },
  sk: { S: sk },
  ...extra,
});

describe('Module: dynamodb-item-keys', () => {
  describe('Function: itemKey', () => {
    it('names the same item the same way whatever else the attributes hold', () => {
      expect(itemKey('t', item('a', '1', { n: { N: '3' } }), keyAttributes)).toBe(key('t', 'a', '1'));
    });

    it.each([
      { title: 'table', one: key('t', 'a', '1'), other: key('u', 'a', '1') },
      { title: 'sort key', one: key('t', 'a', '1'), other: key('t', 'a', '2') },
      {
        title: 'type (a number is not a string)',
        one: itemKey('t', { pk: { S: '1' } }, ['pk']),
        other: itemKey('t', { pk: { N: '1' } }, ['pk']),
      },
    ])('tells items apart by $title', ({ one, other }) => {
      expect(other).not.toBe(one);
    });

    it('reads only the key attributes it is given', () => {
      expect(itemKey('t', { id: { S: 'x' }, pk: { S: 'y' } }, ['id'])).toBe(
        itemKey('t', { id: { S: 'x' } }, ['id']),
      );
    });
  });

  describe('Function: dynamoDbOperation', () => {
    it.each([
      ['DynamoDB_20120810.TransactWriteItems', 'TransactWriteItems'],
      ['DynamoDBStreams_20120810.GetRecords', undefined],
      [undefined, undefined],
      ['', undefined],
    ])('reads %s as %s', (target, operation) => {
      expect(dynamoDbOperation(target)).toBe(operation);
    });
  });

  describe('Function: keyedRequest', () => {
    it('names one item per TransactWriteItems action, in order', () => {
      const body = {
        TransactItems: [
          { Put: { TableName: 't', Item: item('a', '1', { x: { S: 'y' } }) } },
          { Update: { TableName: 't', Key: item('b', '1'), UpdateExpression: 'SET x = :x' } },
          { Delete: { TableName: 'u', Key: item('c', '1') } },
          {
            ConditionCheck: {
              TableName: 't',
              Key: item('d', '1'),
              ConditionExpression: 'attribute_exists(pk)',
            },
          },
        ],
      };

      expect(keyedRequest('TransactWriteItems', body, keyAttributes)).toEqual({
        kind: 'transaction',
        writes: true,
        keys: [key('t', 'a', '1'), key('t', 'b', '1'), key('u', 'c', '1'), key('t', 'd', '1')],
      });
    });

    it('names the items of a TransactGetItems, which writes nothing', () => {
      const body = { TransactItems: [{ Get: { TableName: 't', Key: item('a', '1') } }] };

      expect(keyedRequest('TransactGetItems', body, keyAttributes)).toEqual({
        kind: 'transaction',
        writes: false,
        keys: [key('t', 'a', '1')],
      });
    });

    it.each([
      { operation: 'PutItem', body: { TableName: 't', Item: item('a', '1', { x: { S: 'y' } }) } },
      { operation: 'UpdateItem', body: { TableName: 't', Key: item('a', '1') } },
      { operation: 'DeleteItem', body: { TableName: 't', Key: item('a', '1') } },
    ])('names the item of a $operation', ({ operation, body }) => {
      expect(keyedRequest(operation, body, keyAttributes)).toEqual({
        kind: 'single-write',
        key: key('t', 'a', '1'),
      });
    });

    it.each(['GetItem', 'Query', 'Scan', 'BatchGetItem', 'DescribeTable', undefined])(
      'lets %s pass',
      (operation) => {
        expect(keyedRequest(operation, { TableName: 't', Key: item('a', '1') }, keyAttributes)).toEqual({
          kind: 'other',
        });
      },
    );

    it('reads a malformed body as far as it goes, leaving the refusal to DynamoDB Local', () => {
      expect(keyedRequest('TransactWriteItems', { TransactItems: 'no' }, keyAttributes)).toEqual({
        kind: 'transaction',
        writes: true,
        keys: [],
      });
      expect(keyedRequest('BatchWriteItem', undefined, keyAttributes)).toEqual({
        kind: 'batch-write',
        requestItems: {},
      });
    });
  });

  describe('Function: splitBatchWrites', () => {
    it('holds back the requests whose item is held and forwards the rest', () => {
      const putA = { PutRequest: { Item: item('a', '1') } };
      const deleteB = { DeleteRequest: { Key: item('b', '1') } };
      const putC = { PutRequest: { Item: item('c', '1') } };
      const heldKeys = new Set([key('t', 'b', '1'), key('u', 'c', '1')]);

      const { forward, heldBack } = splitBatchWrites(
        { t: [putA, deleteB], u: [putC] },
        (candidate) => heldKeys.has(candidate),
        keyAttributes,
      );

      expect(forward).toEqual({ t: [putA] });
      expect(heldBack).toEqual({ t: [deleteB], u: [putC] });
    });
  });

  describe('Function: mergeBatchWrites', () => {
    it('appends the held-back requests to those DynamoDB left unprocessed, table by table', () => {
      const first = { t: [{ n: 1 }] };
      const second = { t: [{ n: 2 }], u: [{ n: 3 }] };

      expect(mergeBatchWrites(first, second)).toEqual({ t: [{ n: 1 }, { n: 2 }], u: [{ n: 3 }] });
    });
  });

  describe('Function: writtenItems', () => {
    it('names the items a TransactWriteItems writes, not those it only checks', () => {
      const body = {
        TransactItems: [
          { Put: { TableName: 't', Item: item('a', '1', { x: { S: 'y' } }) } },
          { Update: { TableName: 't', Key: item('b', '1'), UpdateExpression: 'SET x = :x' } },
          { ConditionCheck: { TableName: 't', Key: item('c', '1'), ConditionExpression: 'x' } },
          { Delete: { TableName: 'u', Key: item('d', '1') } },
        ],
      };

      expect(writtenItems('TransactWriteItems', body)).toEqual([
        { tableName: 't', attributes: item('a', '1', { x: { S: 'y' } }) },
        { tableName: 't', attributes: item('b', '1') },
        { tableName: 'u', attributes: item('d', '1') },
      ]);
    });

    it('names every request of a BatchWriteItem, table by table', () => {
      const body = {
        RequestItems: {
          t: [{ PutRequest: { Item: item('a', '1') } }, { DeleteRequest: { Key: item('b', '1') } }],
          u: [{ PutRequest: { Item: item('c', '1') } }],
        },
      };

      expect(writtenItems('BatchWriteItem', body)).toEqual([
        { tableName: 't', attributes: item('a', '1') },
        { tableName: 't', attributes: item('b', '1') },
        { tableName: 'u', attributes: item('c', '1') },
      ]);
    });

    it.each([
      { operation: 'PutItem', body: { TableName: 't', Item: item('a', '1') } },
      { operation: 'UpdateItem', body: { TableName: 't', Key: item('a', '1') } },
      { operation: 'DeleteItem', body: { TableName: 't', Key: item('a', '1') } },
    ])('names the item of a $operation', ({ operation, body }) => {
      expect(writtenItems(operation, body)).toEqual([{ tableName: 't', attributes: item('a', '1') }]);
    });

    it.each(['GetItem', 'Query', 'TransactGetItems', undefined])('names none for %s', (operation) => {
      expect(writtenItems(operation, { TableName: 't', Key: item('a', '1') })).toEqual([]);
    });
  });

  describe('Function: indexRead', () => {
    it.each(['Query', 'Scan'])('reads the table and index of a %s of an index', (operation) => {
      expect(indexRead(operation, { TableName: 't', IndexName: 'gsi1' })).toEqual({
        tableName: 't',
        indexName: 'gsi1',
      });
    });

    it.each([
      { operation: 'Query', body: { TableName: 't' } },
      { operation: 'GetItem', body: { TableName: 't', IndexName: 'gsi1' } },
    ])('finds none in a $operation of $body', ({ operation, body }) => {
      expect(indexRead(operation, body)).toBeUndefined();
    });
  });

  describe('Function: partiqlWrite', () => {
    it.each([
      {
        operation: 'ExecuteStatement',
        body: { Statement: 'UPDATE "t" SET x = 1 WHERE pk = ?' },
        writes: true,
      },
      { operation: 'ExecuteStatement', body: { Statement: ' select * from "t"' }, writes: false },
      {
        operation: 'BatchExecuteStatement',
        body: { Statements: [{ Statement: 'SELECT * FROM t' }, { Statement: 'DELETE FROM t WHERE pk = ?' }] },
        writes: true,
      },
      {
        operation: 'ExecuteTransaction',
        body: { TransactStatements: [{ Statement: 'SELECT 1' }] },
        writes: false,
      },
      { operation: 'PutItem', body: { Statement: 'INSERT' }, writes: false },
    ])('takes $body of $operation for a write: $writes', ({ operation, body, writes }) => {
      expect(partiqlWrite(operation, body)).toBe(writes);
    });
  });
});
