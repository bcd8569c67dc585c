import { describe, expect, it } from 'vitest';
import type { TableWrite } from './table-write.ts';
import { riderFor, withRider } from './transaction-rider.ts';

const event = (id: string): TableWrite => ({
  kind: 'put',
  key: { pk: 'T#ws#EVENT', sk: id },
  entity: 'event',
  record: { event: { id, resource: { type: 'case', id: 'c1' }, data: { object: { lock_version: 4 } } } },
});
const item: TableWrite = { kind: 'put', key: { pk: 'T#ws#CASE', sk: 'c1' }, entity: 'case', record: {} };
const marker: TableWrite = {
  kind: 'put',
  key: { pk: 'T#ws#SYNC_INSTALL', sk: 'u#i' },
  entity: 'sync_installation',
  record: {},
};

describe('Function: riderFor', () => {
  it('rides the first transaction of its scope that carries an event, with the events it carries', async () => {
    const seen: unknown[] = [];
    const rider = {
      spent: false,
      writes: (events: readonly unknown[]) => {
        seen.push(...events);
        return [marker];
      },
    };
    await withRider(rider, async () => {
      expect(riderFor([item])).toBeUndefined();
      expect(riderFor([item, event('e1')])?.writes).toEqual([marker]);
    });
    expect(seen).toEqual([expect.objectContaining({ id: 'e1' })]);
  });

  it('rides nothing once spent, and nothing outside its scope', async () => {
    const rider = { spent: true, writes: () => [marker] };
    await withRider(rider, async () => expect(riderFor([item, event('e1')])).toBeUndefined());
    expect(riderFor([item, event('e2')])).toBeUndefined();
  });
});
