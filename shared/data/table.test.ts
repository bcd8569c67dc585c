import { beforeEach, describe, expect, it, vi } from 'vitest';
import { DataError } from './data-error.ts';

const send = vi.fn();
vi.mock('./client.ts', () => ({ dynamo: () => ({ send }), tableName: () => 'fsm' }));

const { getRecord, incrementCounter, transactWrite } = await import('./table.ts');

const key = { pk: 'T#ws#AREA', sk: 'a1' };
const canceled = (reasons: Array<{ Code: string; Item?: unknown }>) =>
  Object.assign(new Error('canceled'), {
    name: 'TransactionCanceledException',
    CancellationReasons: reasons,
  });

async function dataErrorOf(act: () => Promise<unknown>): Promise<DataError> {
  const error = await act().then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof DataError)) throw new Error(`expected a DataError, got ${String(error)}`);
  return error;
}

beforeEach(() => {
  send.mockReset();
});

describe('Module: table adapter', () => {
  describe('Method: transactWrite', () => {
    it.each([
      {
        title: 'a taken key on create is already-exists',
        write: { kind: 'create' as const, key, entity: 'area', record: {} },
        reason: { Code: 'ConditionalCheckFailed' },
        code: 'already-exists',
      },
      {
        title: 'a replace of a changed item is version-conflict',
        write: { kind: 'replace' as const, key, entity: 'area', record: {}, expectedVersion: 1 },
        reason: { Code: 'ConditionalCheckFailed', Item: { lock_version: { N: '2' } } },
        code: 'version-conflict',
      },
      {
        title: 'a replace of a missing item is not-found',
        write: { kind: 'replace' as const, key, entity: 'area', record: {}, expectedVersion: 1 },
        reason: { Code: 'ConditionalCheckFailed' },
        code: 'not-found',
      },
      {
        title: 'a delete of a missing item is not-found',
        write: { kind: 'delete' as const, key },
        reason: { Code: 'ConditionalCheckFailed' },
        code: 'not-found',
      },
      {
        title: 'a refused condition is the answer even beside another transaction’s item',
        write: { kind: 'delete' as const, key, expectedVersion: 1 },
        reason: { Code: 'ConditionalCheckFailed', Item: { lock_version: { N: '3' } } },
        code: 'version-conflict',
      },
    ])('translates $title', async ({ write, reason, code }) => {
      // Prepare
      send.mockImplementation(async () => {
        throw canceled([reason, { Code: 'None' }]);
      });

      // Act
      const error = await dataErrorOf(() =>
        transactWrite([write, { kind: 'put', key, entity: 'event', record: {} }]),
      );

      // Assess
      expect(error.code).toBe(code);
    });

    it('sends a transaction that met another one (TransactionConflict) again, and succeeds', async () => {
      // Prepare
      send.mockRejectedValueOnce(canceled([{ Code: 'TransactionConflict' }, { Code: 'None' }]));
      send.mockResolvedValueOnce({});

      // Act
      await transactWrite([
        { kind: 'delete', key },
        { kind: 'put', key: { pk: 'x', sk: 'y' }, entity: 'event', record: {} },
      ]);

      // Assess
      expect(send).toHaveBeenCalledTimes(2);
    });

    it('answers contention that persists as unavailable (503), never as a version conflict', async () => {
      // Prepare
      vi.useFakeTimers();
      send.mockRejectedValue(canceled([{ Code: 'TransactionConflict' }]));

      // Act
      const pending = dataErrorOf(() => transactWrite([{ kind: 'delete', key }]));
      await vi.runAllTimersAsync();
      const error = await pending;
      vi.useRealTimers();

      // Assess
      expect(error.code).toBe('unavailable');
      expect(send).toHaveBeenCalledTimes(12);
    });

    it('sends the condition that makes a create fail on a taken key', async () => {
      // Prepare
      send.mockResolvedValue({});

      // Act
      await transactWrite([{ kind: 'create', key, entity: 'area', record: { id: 'a1' } }]);

      // Assess
      const input = send.mock.calls[0]?.[0].input;
      expect(input.TransactItems[0].Put.ConditionExpression).toBe('attribute_not_exists(pk)');
      expect(input.TransactItems[0].Put.Item).toMatchObject({
        id: 'a1',
        pk: key.pk,
        sk: key.sk,
        entity: 'area',
      });
    });
  });

  describe('Method: getRecord', () => {
    it.each([
      { title: 'a refused connection', error: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }) },
      { title: 'a throttle', error: Object.assign(new Error('slow down'), { name: 'ThrottlingException' }) },
      { title: 'a timeout', error: Object.assign(new Error('timeout'), { name: 'TimeoutError' }) },
    ])('turns $title into unavailable', async ({ error }) => {
      // Prepare
      send.mockImplementation(async () => {
        throw error;
      });

      // Act
      const failure = await dataErrorOf(() => getRecord(key));

      // Assess
      expect(failure.code).toBe('unavailable');
    });

    it('lets programming errors through untranslated', async () => {
      // Prepare
      send.mockImplementation(async () => {
        throw new TypeError('bad input');
      });

      // Act + Assess
      await expect(getRecord(key)).rejects.toThrow(TypeError);
    });

    it('finds nothing under a key longer than DynamoDB allows, without asking it', async () => {
      // Act
      const found = await getRecord({ pk: 'REALM#shared#EMAIL', sk: 'a'.repeat(1025) });

      // Assess
      expect(found).toBeUndefined();
      expect(send).not.toHaveBeenCalled();
    });

    it('hides item metadata and treats expired items as absent', async () => {
      // Prepare
      send.mockResolvedValueOnce({ Item: { ...key, entity: 'area', id: 'a1', name: 'North' } });
      send.mockResolvedValueOnce({ Item: { ...key, entity: 'area', id: 'a1', expires_at: 1 } });

      // Act
      const live = await getRecord(key);
      const expired = await getRecord(key);

      // Assess
      expect(live).toEqual({ id: 'a1', name: 'North' });
      expect(expired).toBeUndefined();
    });
  });

  describe('Method: incrementCounter', () => {
    it('returns the counter after the atomic add', async () => {
      // Prepare
      send.mockResolvedValueOnce({ Attributes: { failed: 3, expires_at: 4_000_000_000 } });

      // Act
      const value = await incrementCounter(key, 'login-address', 'failed', 1, 4_000_000_000);

      // Assess
      expect(value).toBe(3);
      const input = send.mock.calls[0]?.[0].input;
      expect(input.UpdateExpression).toContain('ADD #counter :by');
      expect(input.UpdateExpression).toContain('if_not_exists(expires_at, :expires)');
    });

    it('starts a new window when the stored one has expired but was not swept yet', async () => {
      // Prepare: the first add lands on an expired item; it is deleted and the add repeated.
      send.mockResolvedValueOnce({ Attributes: { failed: 57, expires_at: 1 } });
      send.mockResolvedValueOnce({});
      send.mockResolvedValueOnce({ Attributes: { failed: 1, expires_at: 4_000_000_000 } });

      // Act
      const value = await incrementCounter(key, 'login-address', 'failed', 1, 4_000_000_000);

      // Assess
      expect(value).toBe(1);
      expect(send.mock.calls[1]?.[0].constructor.name).toBe('DeleteCommand');
    });
  });

  describe('Method: transactWrite (counters)', () => {
    it('adds to a counter and sets the listed fields in the same transaction', async () => {
      // Prepare
      send.mockResolvedValueOnce({});

      // Act
      await transactWrite([
        { kind: 'add', key, entity: 'tag-usage', attribute: 'count', by: -1, fields: { tag_id: 't1' } },
        { kind: 'discard', key: { pk: 'T#ws#TAG_USAGE', sk: 't2' } },
      ]);

      // Assess
      const [add, discard] = send.mock.calls[0]![0].input.TransactItems;
      expect(add.Update.UpdateExpression).toBe('SET entity = :entity, #f0 = :f0 ADD #counter :by');
      expect(add.Update.ExpressionAttributeValues).toMatchObject({ ':by': -1, ':f0': 't1' });
      expect(discard.Delete.ConditionExpression).toBeUndefined();
    });
  });
});
