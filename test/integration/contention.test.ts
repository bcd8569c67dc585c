/**
 * Writes of different records never meet, under DynamoDB's own semantics: a proxy in front of
 * DynamoDB Local (shared/local-stack/dynamodb-semantics-proxy.ts) cancels a transaction that
 * touches an item another transaction holds, as DynamoDB does (DynamoDB Local runs them one at a
 * time). Dispatchers editing different cases at the same moment must all succeed: no 409 (a
 * version conflict is only the record's own condition failing), no 503. And the lists' totals,
 * which those writes move through their tallies (shared/data/tally.ts), end exact, whether the
 * writer applied its tally or the stream processor did, and however often the stream delivers it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../shared/auth/actor.ts';
import { grantsOfRoles } from '../../shared/auth/grants.ts';
import { DataError } from '../../shared/data/data-error.ts';
import { listKeys } from '../../shared/data/keys.ts';
import { workspaceScope } from '../../shared/data/list-patterns.ts';
import { getRecords, queryItems } from '../../shared/data/table.ts';
import { tallyEntity } from '../../shared/data/tally.ts';
import type { Case } from '../../shared/domain/cases/case.schema.ts';
import { createCase, updateCase } from '../../shared/domain/cases/case.service.ts';
import { serviceAccountIdOf, workspaceIdOf } from '../../shared/domain/workspaces/workspace-provisioning.ts';
import { processStreamBatch } from '../../shared/events/stream-processor.ts';
import { applySeed } from '../../shared/local-stack/seed.ts';
import type { StreamPoller } from '../../shared/local-stack/stream-poller.ts';
import { type SemanticsHarness, startSemanticsHarness } from '../support/semantics-harness.ts';

const workspaceName = 'Contention Works';
let harness: SemanticsHarness;
let proxy: SemanticsHarness['proxy'];
let poller: StreamPoller;
let ctx: Actor;
/** Tallies the records stream processor was handed. */
let talliesSeen = 0;

beforeAll(async () => {
  // Holding each transaction's items 20 ms after DynamoDB Local answered makes concurrent
  // requests of this test really meet, as they would on DynamoDB.
  harness = await startSemanticsHarness({
    holdMs: 20,
    seen: (event) => {
      talliesSeen += event.Records.filter(
        (record) => record.eventName === 'INSERT' && record.dynamodb?.NewImage?.entity?.S === tallyEntity,
      ).length;
    },
  });
  proxy = harness.proxy;
  poller = harness.poller as StreamPoller;
  await applySeed({
    workspaces: [
      {
        name: workspaceName,
        realm: 'shared',
        status: 'ACTIVE',
        users: [],
        clients: [{ client_id: 'contention-admin', client_secret: 'contention-1', roles: ['admin'] }],
      },
    ],
  });
  const workspaceId = workspaceIdOf(workspaceName);
  ctx = {
    workspaceId,
    principal: {
      id: serviceAccountIdOf(workspaceId, 'contention-admin'),
      kind: 'service_account',
      workspaceId,
      roles: ['admin'],
      grants: grantsOfRoles(['admin']),
    },
    requestId: 'contention',
    correlationId: 'contention',
  };
}, 120_000);

afterAll(async () => {
  await harness?.stop();
});

const counterOf = async (...names: string[]) => {
  const scope = workspaceScope(ctx.workspaceId);
  const found = await getRecords(names.map((name) => listKeys.counter(scope, 'CASE', name)));
  return found.map((item) => Number(item?.count ?? 0));
};

/** Cases by status, counted from the cases themselves (the reference the counters must meet). */
async function statusesCounted(): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for await (const item of queryItems({
    partitionKey: { name: 'pk', value: `T#${ctx.workspaceId}#CASE` },
    pageSize: () => 1000,
  })) {
    const status = String(item.status);
    counts.set(status, (counts.get(status) ?? 0) + 1);
  }
  return counts;
}

async function tallyItemsLeft(): Promise<number> {
  let left = 0;
  for await (const _ of queryItems({
    partitionKey: {
      name: 'pk',
      value: `${listKeys.counter(workspaceScope(ctx.workspaceId), 'CASE', 'all').pk}#TALLY`,
    },
    pageSize: () => 1000,
  }))
    left++;
  return left;
}

describe('Concurrent writes of different records under DynamoDB semantics', () => {
  it('60 dispatchers updating 60 different cases at once, three rounds: no 409, no 503, totals exact', async () => {
    const cases: Case[] = [];
    for (let i = 0; i < 60; i++) {
      cases.push(await createCase(ctx, { title: `Boiler ${i}`, status: 'NEW', priority: 'MEDIUM' } as never));
    }
    const cancelledBefore = proxy.stats().cancelled;
    const statuses = ['ON_HOLD', 'NEW', 'ON_HOLD'] as const;
    const failures: string[] = [];
    for (const [round, status] of statuses.entries()) {
      const settled = await Promise.allSettled(
        cases.map((item) =>
          updateCase(ctx, item.id, {
            title: `Boiler ${item.title.split(' ')[1]} (round ${round + 1})`,
            status,
            priority: round % 2 === 0 ? 'HIGH' : 'LOW',
            lock_version: item.lock_version,
          } as never),
        ),
      );
      for (const [i, outcome] of settled.entries()) {
        if (outcome.status === 'fulfilled') cases[i] = outcome.value;
        else {
          const reason = outcome.reason as DataError | Error;
          failures.push(
            `round ${round + 1}, case ${i}: ${reason instanceof DataError ? reason.code : reason.name} ${reason.message}`,
          );
        }
      }
    }
    expect(failures).toEqual([]);
    // The proxy really made transactions meet (the tallies' appliers, on the counters), so the
    // rounds above were contended, not serial.
    expect(proxy.stats().cancelled).toBeGreaterThan(cancelledBefore);

    // Every tally applied once, by its writer or by the stream: the counters equal the cases.
    await poller.drained();
    await expect.poll(tallyItemsLeft, { timeout: 10_000 }).toBe(0);
    const counted = await statusesCounted();
    expect(await counterOf('all', 'ON_HOLD', 'NEW')).toEqual([
      60,
      counted.get('ON_HOLD') ?? 0,
      counted.get('NEW') ?? 0,
    ]);
    expect(counted.get('ON_HOLD')).toBe(60);
  });

  it('a tally the writer never applied is applied by the stream, once however often it is delivered', async () => {
    process.env.FSM_TALLY_INLINE = 'off';
    try {
      const [before] = await counterOf('NEW');
      const created = await createCase(ctx, {
        title: 'Left to the stream',
        status: 'NEW',
        priority: 'LOW',
      } as never);
      expect(created.status).toBe('NEW');
      await poller.drained();
      await expect.poll(tallyItemsLeft, { timeout: 10_000 }).toBe(0);
      expect(await counterOf('NEW')).toEqual([(before ?? 0) + 1]);
    } finally {
      delete process.env.FSM_TALLY_INLINE;
    }
    expect(talliesSeen).toBeGreaterThan(0);
  });

  it('a stream record of a tally delivered again changes nothing', async () => {
    // The stream processor stops here: this test delivers the tally's record itself.
    await poller.drained();
    await poller.stop();
    const [before] = await counterOf('all');
    process.env.FSM_TALLY_INLINE = 'off';
    try {
      await createCase(ctx, { title: 'Delivered thrice', status: 'NEW', priority: 'LOW' } as never);
    } finally {
      delete process.env.FSM_TALLY_INLINE;
    }
    const images: Record<string, unknown>[] = [];
    for await (const item of queryItems({
      partitionKey: {
        name: 'pk',
        value: `${listKeys.counter(workspaceScope(ctx.workspaceId), 'CASE', 'all').pk}#TALLY`,
      },
      pageSize: () => 10,
    }))
      images.push(item);
    expect(images).toHaveLength(1);
    expect(await counterOf('all')).toEqual([before]);
    const { marshall } = await import('@aws-sdk/util-dynamodb');
    const record = {
      eventName: 'INSERT' as const,
      dynamodb: {
        NewImage: marshall(images[0], { removeUndefinedValues: true }) as never,
        SequenceNumber: '1',
      },
    };
    // Lambda delivers at least once: the same record three times, twice in one batch.
    for (const batch of [[record, record], [record]]) {
      const answer = await processStreamBatch({ Records: batch } as never, [], () => {}, { tallies: true });
      expect(answer.batchItemFailures).toEqual([]);
    }
    expect(await counterOf('all')).toEqual([(before ?? 0) + 1]);
    expect(await tallyItemsLeft()).toBe(0);
  });
});
