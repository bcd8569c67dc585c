import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { inSchemaOrder } from './canonical-order.ts';

const Item = z.object({
  id: z.string(),
  name: z.string(),
  note: z.string().optional(),
  meta: z.record(z.string(), z.unknown()),
});
const List = z.object({ items: z.array(Item), page: z.object({ size: z.int(), number: z.int() }) });

describe('Function: inSchemaOrder', () => {
  it('orders keys as the schema declares them, in nested lists too', () => {
    // Prepare
    const stored = { page: { number: 0, size: 20 }, items: [{ meta: { b: 1, a: 2 }, name: 'n', id: '1' }] };

    // Act
    const ordered = inSchemaOrder(stored, List);

    // Assess
    expect(JSON.stringify(ordered)).toBe(
      '{"items":[{"id":"1","name":"n","meta":{"b":1,"a":2}}],"page":{"size":20,"number":0}}',
    );
  });

  it('keeps undeclared keys after the declared ones and never adds absent ones', () => {
    // Act
    const ordered = inSchemaOrder({ extra: true, id: '1', name: 'n', meta: {} }, Item);

    // Assess
    expect(Object.keys(ordered as object)).toEqual(['id', 'name', 'meta', 'extra']);
  });
});
