import { describe, expect, it } from 'vitest';
import type { TableWrite } from './table-write.ts';
import { tallied, tallyOfItem } from './tally.ts';

const counter = (sk: string, by: number): TableWrite => ({
  kind: 'add',
  key: { pk: 'T#ws#COUNT', sk },
  entity: 'counter',
  attribute: 'count',
  by,
  tally: true,
});

describe('A transaction with shared counters', () => {
  it('writes one tally item of its own instead of the counters, and keeps its other writes', () => {
    const record: TableWrite = {
      kind: 'put',
      key: { pk: 'T#ws#CASE', sk: 'c1' },
      entity: 'case',
      record: {},
    };
    const own: TableWrite = {
      kind: 'add',
      key: { pk: 'T#ws#CRED', sk: 'u1' },
      entity: 'credential',
      attribute: 'failed_logins',
      by: 1,
    };
    const { writes, tally } = tallied([record, counter('CASE#NEW', -1), own, counter('CASE#ON_HOLD', 1)]);
    expect(writes.slice(0, 2)).toEqual([record, own]);
    expect(writes).toHaveLength(3);
    const item = writes[2] as Extract<TableWrite, { kind: 'create' }>;
    expect(item).toMatchObject({ kind: 'create', entity: 'tally' });
    expect(item.key.pk).toBe('T#ws#COUNT#TALLY');
    expect(tally?.key).toEqual(item.key);
    // Two transactions never share a tally.
    expect(tallied([counter('CASE#all', 1)]).tally?.key).not.toEqual(
      tallied([counter('CASE#all', 1)]).tally?.key,
    );
  });

  it('stores the changes so that the stream processor reads back exactly what to apply', () => {
    const usage: TableWrite = {
      kind: 'add',
      key: { pk: 'T#ws#TAG_USAGE', sk: 't1' },
      entity: 'tag-usage',
      attribute: 'count',
      alsoAdd: ['gsi6sk'],
      by: 1,
      fields: { id: 't1' },
      tally: true,
    };
    const { writes, tally } = tallied([counter('USER#all', 1), counter('USER#rev', 1), usage]);
    const item = writes[0] as Extract<TableWrite, { kind: 'create' }>;
    const read = tallyOfItem({ ...item.record, pk: item.key.pk, sk: item.key.sk, entity: item.entity });
    const bare = (adds: readonly TableWrite[]) =>
      adds.map((add) => {
        const { tally: _shared, ...rest } = add as Extract<TableWrite, { kind: 'add' }>;
        return rest;
      });
    expect(read?.key).toEqual(tally?.key);
    expect(read?.adds).toEqual(bare(tally?.adds ?? []));
    // Plain counters stored as numbers under their partition: small, whatever the transaction.
    expect(JSON.stringify(item.record).length).toBeLessThan(300);
  });

  it('leaves a transaction without shared counters as it is', () => {
    const record: TableWrite = {
      kind: 'put',
      key: { pk: 'T#ws#AREA', sk: 'a1' },
      entity: 'area',
      record: {},
    };
    expect(tallied([record])).toEqual({ writes: [record] });
  });

  it('is not a tally unless the item says so', () => {
    expect(tallyOfItem({ pk: 'T#ws#EVENT', sk: 'e1', entity: 'event' })).toBeUndefined();
  });
});
