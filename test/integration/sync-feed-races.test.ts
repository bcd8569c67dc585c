/**
 * Offline sync's change log under DynamoDB's own semantics (the semantics proxy: concurrent
 * transactions on one item cancel each other, as DynamoDB does; DynamoDB Local runs them one at a
 * time). Several sync indexers of one workspace appending at once — stream shards processed in
 * parallel, a batch handed over again — must give every entry its own position, move the head
 * to exactly the number of entries, and leave every entry at or below the head readable: what a
 * pull's "no lost change" rests on (docs/offline-sync.md, invariant 1).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncFeedPartition } from '../../shared/data/keys.ts';
import { queryItems } from '../../shared/data/table.ts';
import { syncStore } from '../../shared/domain/sync/sync.store.ts';
import { type SemanticsHarness, startSemanticsHarness } from '../support/semantics-harness.ts';

let harness: SemanticsHarness;

beforeAll(async () => {
  // Each transaction holds its items 20 ms after DynamoDB Local answered: appenders really meet.
  harness = await startSemanticsHarness({ holdMs: 20, tallies: false });
}, 120_000);

afterAll(async () => {
  await harness?.stop();
});

describe('Offline sync: the feeds under concurrent indexers', () => {
  it('gives every entry of concurrent appends its own position, the head their number, and loses none', async () => {
    // Prepare: four indexers, each appending five batches of six entries for two users.
    const workspaceId = randomUUID();
    const store = syncStore(workspaceId);
    const users = ['anna', 'ben'];
    const batches = Array.from({ length: 4 }, (_, indexer) =>
      Array.from({ length: 5 }, (_, batch) =>
        Array.from({ length: 6 }, (_, n) => ({
          owner: users[n % 2] as string,
          type: 'case' as const,
          id: `${indexer}-${batch}-${n}`,
        })),
      ),
    );

    // Act
    await Promise.all(
      batches.map(async (ofIndexer) => {
        for (const batch of ofIndexer) await store.append(batch);
      }),
    );

    // Assess
    const head = await store.head();
    const read: Array<{ seq: number; id: string }> = [];
    for (const owner of users) {
      for await (const item of queryItems({
        partitionKey: { name: 'pk', value: syncFeedPartition(workspaceId, owner) },
        pageSize: () => 1000,
      })) {
        read.push({ seq: Number(item.sk), id: String(item.id) });
      }
    }
    expect(head.seq).toBe(120);
    expect(new Set(read.map((entry) => entry.seq)).size).toBe(120);
    expect(read.map((entry) => entry.id).sort()).toEqual(
      batches
        .flat(2)
        .map((entry) => entry.id)
        .sort(),
    );
    // Positions 1..head, each once: a pull reading up to any head it read meets no hole.
    expect(read.map((entry) => entry.seq).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 120 }, (_, i) => i + 1),
    );
    // The feeds of one user, read in position order, hold each of its indexer's batches in order.
    const annas = read.filter(
      (entry) => entry.id.endsWith('-0') || entry.id.endsWith('-2') || entry.id.endsWith('-4'),
    );
    for (let indexer = 0; indexer < 4; indexer++) {
      const own = annas
        .filter((entry) => entry.id.startsWith(`${indexer}-`))
        .sort((a, b) => a.seq - b.seq)
        .map((entry) => Number(entry.id.split('-')[1]));
      expect(own).toEqual([...own].sort((a, b) => a - b));
    }
  }, 60_000);
});
