/**
 * Tallies: the bookkeeping that writes of different records share (a list's counters and
 * revision, a tag's usage count, a comment thread's counts), kept off the records' own
 * transactions.
 *
 * Why: on DynamoDB two transactions that touch one item at the same moment cancel each other
 * (TransactionConflict). With every case update ADDing to its list's counters and revision in its
 * own transaction, two dispatchers editing two different cases met on those items, and every
 * list's writes queued on one item (~500 writes/s per item at best). Now a transaction writes its
 * shared changes as one item of its own, its tally (a random key: no other transaction ever
 * writes it), and the tally is applied afterwards by a transaction of its own that deletes it
 * (on the condition that it still exists) and ADDs its changes: applied exactly once, whoever
 * applies it. The writer applies it right after its transaction commits (so its own next read
 * sees the totals it changed); if that fails or the writer dies first, the `records` stream
 * processor applies it from the table's stream (stream-processor.ts), as DynamoDB Streams
 * delivers every insert. Tallies wait for their apply in the meantime (no expiry: a lost tally
 * would be a total wrong for good).
 *
 * Applying meets other appliers on the counters; those transactions are retried with back-off,
 * and many tallies of one stream batch are applied in one transaction (their changes merged), so
 * a busy list's counters take one write per batch, not one per record.
 *
 * Every counter a tally moves also gets `applied_at` (when the change was applied): a list's
 * revision says by it when the list last changed (list-read.ts keeps nothing for a revision
 * younger than the index lag bound).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from './client.ts';
import { DataError } from './data-error.ts';
import { listKeys } from './keys.ts';
import { isConditionFailure, isContention, retryingContention, translate } from './table-failure.ts';
import type { Key } from './table-item.ts';
import { getRecords } from './table-reads.ts';
import type { TableWrite, TransactItem } from './table-write.ts';

export const tallyEntity = 'tally';

type CounterAdd = Extract<TableWrite, { kind: 'add' }>;

export interface Tally {
  key: Key;
  adds: CounterAdd[];
}

/**
 * A transaction's writes with its shared counter changes (`tally: true`) replaced by one tally
 * item, and that tally (to apply once the transaction committed); writes without any as they are.
 */
export function tallied(writes: readonly TableWrite[]): { writes: TableWrite[]; tally?: Tally } {
  const adds: CounterAdd[] = [];
  const rest: TableWrite[] = [];
  for (const write of writes) {
    if (write.kind === 'add' && write.tally) {
      const { tally: _shared, ...add } = write;
      adds.push(add);
    } else rest.push(write);
  }
  const first = adds[0];
  if (!first) return { writes: rest };
  const key = listKeys.tally(first.key.pk, randomUUID());
  return {
    writes: [...rest, { kind: 'create', key, entity: tallyEntity, record: storedTally(adds) }],
    tally: { key, adds },
  };
}

/** A plain counter change (entity `counter`, attribute `count`, nothing else): stored as a number. */
const isPlain = (add: CounterAdd) =>
  add.entity === 'counter' && add.attribute === 'count' && !add.fields && !add.alsoAdd && !add.greatest;

/**
 * A tally as stored, small (a transaction pays per KB of each item): plain counter changes as
 * `counters` = { pk: { sk: by } } (a case update's three: ~120 bytes), others as they are.
 */
function storedTally(adds: readonly CounterAdd[]): Record<string, unknown> {
  const counters: Record<string, Record<string, number>> = {};
  const others: Array<Omit<CounterAdd, 'kind'>> = [];
  for (const add of adds) {
    if (!isPlain(add)) {
      const { kind: _kind, ...rest } = add;
      others.push(rest);
      continue;
    }
    const partition = counters[add.key.pk] ?? {};
    partition[add.key.sk] = (partition[add.key.sk] ?? 0) + add.by;
    counters[add.key.pk] = partition;
  }
  return { counters, ...(others.length > 0 ? { adds: others } : {}) };
}

/** The tally an item of the table holds (a stream record's new image), if it is one. */
export function tallyOfItem(item: Record<string, unknown>): Tally | undefined {
  if (item.entity !== tallyEntity || typeof item.pk !== 'string' || typeof item.sk !== 'string')
    return undefined;
  const counters = (item.counters ?? {}) as Record<string, Record<string, number>>;
  const plain = Object.entries(counters).flatMap(([pk, byKey]) =>
    Object.entries(byKey).map(
      ([sk, by]): CounterAdd => ({
        kind: 'add',
        key: { pk, sk },
        entity: 'counter',
        attribute: 'count',
        by: Number(by),
      }),
    ),
  );
  const others = (Array.isArray(item.adds) ? (item.adds as CounterAdd[]) : []).map(
    (add): CounterAdd => ({ ...add, kind: 'add', by: Number(add.by) }),
  );
  return { key: { pk: item.pk, sk: item.sk }, adds: [...plain, ...others] };
}

/** Items of one transaction at most (DynamoDB's limit). */
const maxItems = 100;

/** Whether the writer itself applies its tally after committing (off: only the stream does; tests). */
const appliedInline = () => process.env.FSM_TALLY_INLINE !== 'off';

const gatheredTallies = new AsyncLocalStorage<Tally[]>();

/**
 * Runs `work`, whose writes' tallies are applied together when it ends (their changes merged,
 * up to 100 items per transaction) instead of one transaction after each write: a push of many
 * offline mutations (domain/sync/push.service.ts) pays one apply, not one per mutation. Best
 * effort as ever: what fails is left to the stream.
 */
export async function withTalliesGathered<T>(work: () => Promise<T>): Promise<T> {
  const gathered: Tally[] = [];
  try {
    return await gatheredTallies.run(gathered, work);
  } finally {
    if (gathered.length > 0) {
      try {
        await applyTallies(gathered, 3);
      } catch {
        // Left to the stream (their inserts are on the table's stream): totals lag until then.
      }
    }
  }
}

/**
 * Applies the tally of a transaction that just committed, best effort: a few attempts against
 * other appliers, then it is left to the stream processor, which applies every tally it finds
 * still there. The write itself has succeeded either way; its caller never sees a failure here.
 */
export async function settleTally(tally: Tally): Promise<void> {
  if (!appliedInline()) return;
  const gathered = gatheredTallies.getStore();
  if (gathered) {
    gathered.push(tally);
    return;
  }
  try {
    await applyTallies([tally], 3);
  } catch {
    // Left to the stream (its insert is on the table's stream): totals lag until then.
  }
}

/**
 * Applies tallies: per transaction as many as fit (a delete of each, on the condition that it
 * still exists, and their merged counter changes). A tally already applied (its delete's
 * condition fails) is dropped and the rest sent again; a transaction that met others is sent
 * again after a pause, up to `attempts` times, then the failure is thrown (`unavailable`).
 */
export async function applyTallies(
  tallies: readonly Tally[],
  attempts = 12,
  options: { waitingOnly?: boolean } = {},
): Promise<void> {
  const pending = options.waitingOnly ? await stillWaiting(tallies) : tallies;
  for (const chunk of chunksOf(pending)) await applyChunk(chunk, attempts);
}

/**
 * Of these tallies, those not applied yet: one strongly consistent BatchGetItem per 100. The
 * stream delivers every tally, and their writers have applied nearly all of them already: a
 * batch then costs this read, not a transaction that fails on every tally's condition.
 */
async function stillWaiting(tallies: readonly Tally[]): Promise<Tally[]> {
  const found = await getRecords(
    tallies.map((tally) => tally.key),
    { consistent: true },
  );
  return tallies.filter((_, i) => found[i] !== undefined);
}

/** The item a change moves: DynamoDB takes one operation per item in a transaction. */
function counterId(add: CounterAdd): string {
  return `${add.key.pk}\u0000${add.key.sk}`;
}

/** Tallies grouped so that each group's deletes and distinct counters fit one transaction. */
function chunksOf(tallies: readonly Tally[]): Tally[][] {
  const chunks: Tally[][] = [];
  let chunk: Tally[] = [];
  let counters = new Set<string>();
  for (const tally of tallies) {
    const ids = tally.adds.map(counterId);
    const grown = new Set([...counters, ...ids]);
    if (chunk.length > 0 && chunk.length + 1 + grown.size > maxItems) {
      chunks.push(chunk);
      chunk = [];
      counters = new Set(ids);
    } else counters = grown;
    chunk.push(tally);
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}

/**
 * The counter changes of tallies as one Update per item (DynamoDB takes one operation per item in
 * a transaction): every attribute's changes summed (a comment's reactions of two emojis are two
 * attributes of one item), its fields set, and `applied_at`, when the change was applied.
 */
function mergedUpdates(tallies: readonly Tally[], appliedAt: string): TransactItem[] {
  const items = new Map<
    string,
    { key: Key; entity: string; fields: Record<string, unknown>; adds: Map<string, number> }
  >();
  for (const add of tallies.flatMap((tally) => tally.adds)) {
    const id = counterId(add);
    const item = items.get(id) ?? { key: add.key, entity: add.entity, fields: {}, adds: new Map() };
    item.entity = add.entity;
    Object.assign(item.fields, add.fields);
    for (const attribute of [add.attribute, ...(add.alsoAdd ?? [])]) {
      item.adds.set(attribute, (item.adds.get(attribute) ?? 0) + add.by);
    }
    items.set(id, item);
  }
  return [...items.values()].map(({ key, entity, fields, adds }) => {
    const sets = Object.entries({ ...fields, entity, applied_at: appliedAt });
    const added = [...adds];
    return {
      Update: {
        TableName: tableName(),
        Key: key,
        UpdateExpression: `SET ${sets.map((_, i) => `#s${i} = :s${i}`).join(', ')} ADD ${added
          .map((_, i) => `#a${i} :a${i}`)
          .join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries([
          ...sets.map(([name], i) => [`#s${i}`, name]),
          ...added.map(([name], i) => [`#a${i}`, name]),
        ]),
        ExpressionAttributeValues: Object.fromEntries([
          ...sets.map(([, value], i) => [`:s${i}`, value]),
          ...added.map(([, by], i) => [`:a${i}`, by]),
        ]),
      },
    };
  });
}

function cancellationCodes(error: unknown): string[] | undefined {
  const failure = error as { name?: string; CancellationReasons?: Array<{ Code?: string }> } | null;
  if (failure?.name !== 'TransactionCanceledException' || !failure.CancellationReasons) return undefined;
  return failure.CancellationReasons.map((reason) => reason.Code ?? 'None');
}

/**
 * Raises the `greatest` attributes of a chunk's counters, each an UpdateItem on the condition
 * that it moves up: before the chunk's transaction, so a tally is never gone while its greatest
 * values are not yet there (sent again, they change nothing).
 */
async function raiseGreatest(chunk: readonly Tally[]): Promise<void> {
  const raises = chunk.flatMap((tally) =>
    tally.adds.flatMap((add) =>
      Object.entries(add.greatest ?? {}).map(([name, value]) => ({ add, name, value })),
    ),
  );
  for (const { add, name, value } of raises) {
    try {
      await dynamo().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: add.key,
          UpdateExpression: 'SET #g = :g, entity = :entity',
          ConditionExpression: 'attribute_not_exists(#g) OR #g < :g',
          ExpressionAttributeNames: { '#g': name },
          ExpressionAttributeValues: { ':g': value, ':entity': add.entity },
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) continue;
      if (isContention(error)) throw error;
      translate(error, 'tally');
    }
  }
}

async function applyChunk(chunk: readonly Tally[], attempts: number): Promise<void> {
  await retryingContention('tally', () => raiseGreatest(chunk));
  let left = [...chunk];
  for (let attempt = 1; left.length > 0; ) {
    const items: TransactItem[] = [
      ...left.map((tally) => ({
        Delete: { TableName: tableName(), Key: tally.key, ConditionExpression: 'attribute_exists(pk)' },
      })),
      ...mergedUpdates(left, new Date().toISOString()),
    ];
    try {
      await dynamo().send(new TransactWriteCommand({ TransactItems: items }));
      return;
    } catch (error) {
      const codes = cancellationCodes(error);
      // Applied by someone else meanwhile (the writer, or another delivery of the stream record).
      const gone = new Set(
        (codes ?? [])
          .slice(0, left.length)
          .flatMap((code, i) => (code === 'ConditionalCheckFailed' ? [i] : [])),
      );
      if (gone.size > 0) {
        left = left.filter((_, i) => !gone.has(i));
        continue;
      }
      if (!isContention(error)) translate(error, 'tally');
      if (attempt >= attempts) {
        throw new DataError('unavailable', `tally: still contended after ${attempt} attempts`, {
          cause: error,
        });
      }
      attempt++;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(400, 10 * 2 ** attempt)));
    }
  }
}
