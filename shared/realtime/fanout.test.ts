/** Stream events are published in batches SNS accepts: at most 10 messages and 256 KiB each. */
import { describe, expect, it } from 'vitest';
import { publishBatches } from './fanout.ts';

describe('Stream fan-out batches', () => {
  it('keeps stream order and at most 10 messages per batch', () => {
    const messages = Array.from({ length: 23 }, (_, i) => `m${i}`);

    const batches = publishBatches(messages);

    expect(batches.map((batch) => batch.length)).toEqual([10, 10, 3]);
    expect(batches.flat()).toEqual(messages);
  });

  it('starts a new batch before the size limit, and sends an oversized message alone', () => {
    const big = 'x'.repeat(120_000);

    const batches = publishBatches([big, big, big, 'small', 'y'.repeat(300_000)]);

    expect(batches.map((batch) => batch.length)).toEqual([2, 2, 1]);
  });
});
