import { beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * A fake index of k partitions (streams) answering Query like DynamoDB: a key range, a Limit,
 * ExclusiveStartKey. It counts the Queries and entries each partition returned.
 */
const partitions = new Map<string, string[]>();
const reads = new Map<string, number[]>();
const send = vi.fn(async (command: { input: Record<string, unknown> }) => {
  const input = command.input as {
    ExpressionAttributeValues: Record<string, string>;
    Limit: number;
    ExclusiveStartKey?: { sk: string };
    ScanIndexForward: boolean;
  };
  const values = input.ExpressionAttributeValues;
  const pk = values[':pk'] ?? '';
  const keys = partitions.get(pk) ?? [];
  const ordered = input.ScanIndexForward ? keys : [...keys].reverse();
  const after = input.ExclusiveStartKey?.sk;
  const from = after === undefined ? 0 : ordered.indexOf(after) + 1;
  const page = ordered.slice(from, from + input.Limit);
  reads.set(pk, [...(reads.get(pk) ?? []), page.length]);
  const more = from + page.length < ordered.length;
  return {
    Items: page.map((sk) => ({ pk, sk, id: sk })),
    ...(more && page.length > 0 ? { LastEvaluatedKey: { pk, sk: page.at(-1) } } : {}),
  };
});
vi.mock('./client.ts', () => ({ dynamo: () => ({ send }), tableName: () => 'fsm' }));

const { entriesOf, merged, readSizes } = await import('./list-walk.ts');

/** k partitions of n entries each; entry j of partition s has the key j × k + s (interleaved). */
function interleaved(k: number, n: number) {
  for (let s = 0; s < k; s++)
    partitions.set(
      `P${s}`,
      Array.from({ length: n }, (_, j) => String(j * k + s).padStart(8, '0')),
    );
}

/**
 * A walk as list-scan.ts walks: merged streams, the filter tested on each entry, until `need`
 * matches; each stream's Limit from readSizes with the walk's estimate of the entries it needs.
 */
async function walkOf(k: number, need: number, where?: (key: number) => boolean) {
  let walked = 0;
  let found = 0;
  const entriesNeeded = () => {
    const remaining = need - found;
    if (!where || walked === 0) return remaining;
    return found === 0 ? undefined : Math.ceil((remaining * walked) / found);
  };
  const sizes = readSizes({ streams: k, merged: true, entriesNeeded, exact: false, whole: false });
  const streams = Array.from({ length: k }, (_, stream) =>
    entriesOf({
      index: 'gsi4',
      partition: `P${stream}`,
      partitionKeyName: 'pk',
      sortKeyName: 'sk',
      descending: false,
      pageSize: () => sizes.sizeOf(stream),
      stream,
    }),
  );
  for await (const entry of merged(streams, false)) {
    walked++;
    sizes.consumed(entry.stream);
    if (!where || where(Number(entry.sortKey))) found++;
    if (found === need) break;
  }
  const perPartition = [...reads.values()].map((pages) => pages.reduce((a, b) => a + b, 0));
  return { walked, read: perPartition.reduce((a, b) => a + b, 0), perPartition };
}

beforeEach(() => {
  partitions.clear();
  reads.clear();
  send.mockClear();
  delete process.env.FSM_LIST_QUERY_MAX;
});

describe('Function: readSizes (the reading pattern of a k-way merge)', () => {
  it('reads a fraction of the need per stream first: a page of 20 over 6 partitions reads 60 entries, not 6 × 21', async () => {
    interleaved(6, 1000);
    const { walked, read, perPartition } = await walkOf(6, 21);
    expect(walked).toBe(21);
    // One Query of ~4 KB (10 entries) per partition: ceil(21 ÷ 6) × 1.25 is below that floor.
    expect([...reads.values()]).toEqual(Array.from({ length: 6 }, () => [10]));
    expect(perPartition).toEqual([10, 10, 10, 10, 10, 10]);
    expect(read).toBe(60);
  });

  it('reads about need ÷ selectivity with a filter matching 10 %, not k × need per round', async () => {
    interleaved(6, 1000);
    const { walked, read } = await walkOf(6, 21, (key) => key % 10 === 1);
    // 21 matches at 10 %: 202 entries walked (the 21st match is key 201).
    expect(walked).toBe(202);
    expect(read).toBeGreaterThanOrEqual(walked);
    expect(read).toBeLessThanOrEqual(1.5 * walked);
    // First Queries of 10, then each drained stream its share of the estimated rest.
    for (const pages of reads.values()) {
      expect(pages[0]).toBe(10);
      expect(pages.length).toBeLessThanOrEqual(3);
    }
  });

  it('fetches more only for the streams the merge drains', async () => {
    interleaved(6, 1000);
    // Partition 0 holds every key before the others: the merge takes only from it.
    partitions.set(
      'P0',
      Array.from({ length: 1000 }, (_, j) => `-${String(j).padStart(8, '0')}`),
    );
    await walkOf(6, 101);
    expect(reads.get('P0')?.length).toBeGreaterThan(1);
    // First Queries of ceil(101 ÷ 6 × 1.25) = 22 entries; the other streams read nothing more.
    for (const s of [1, 2, 3, 4, 5]) expect(reads.get(`P${s}`)).toEqual([22]);
    // Its second Query asks for the rest of the need (it took every entry so far), with the margin.
    expect(reads.get('P0')?.[1]).toBe(Math.ceil((101 - 22) * 1.25));
  });

  it("doubles a drained stream's Query while a filter has matched nothing, and never asks beyond maxPerQuery", async () => {
    interleaved(2, 2000);
    const { perPartition } = await walkOf(2, 1, (key) => key === 1201);
    // 630 entries of each partition reach past key 1201.
    expect(reads.get('P0')).toEqual([10, 20, 40, 80, 160, 320]);
    expect(perPartition[1]).toBe(630);
    process.env.FSM_LIST_QUERY_MAX = '3';
    reads.clear();
    await walkOf(2, 1, (key) => key === 41);
    for (const pages of reads.values()) for (const size of pages) expect(size).toBeLessThanOrEqual(3);
  });
});

describe('merged partitions', () => {
  it('come out in byte order, as DynamoDB orders each of them, also for characters above U+FFFF', async () => {
    // Each partition as DynamoDB returns it: by UTF-8 bytes (U+E000 before U+1F600).
    partitions.set('P0', ['\uE000a', '\u{1F600}c']);
    partitions.set('P1', ['b', '\u{1F600}b']);
    partitions.set('P2', ['\uFFFDz']);
    const streams = ['P0', 'P1', 'P2'].map((partition, stream) =>
      entriesOf({
        partition,
        partitionKeyName: 'pk',
        sortKeyName: 'sk',
        descending: false,
        pageSize: () => 10,
        stream,
      }),
    );
    const keys: unknown[] = [];
    for await (const entry of merged(streams, false)) keys.push(entry.sortKey);
    expect(keys).toEqual(['b', '\uE000a', '\uFFFDz', '\u{1F600}b', '\u{1F600}c']);
  });
});
