/**
 * Index lag for the semantics proxy (dynamodb-semantics-proxy.ts). DynamoDB updates a global
 * secondary index asynchronously: a Query or Scan of a GSI may miss a write its table already
 * answers, or still show an item under its old index key. DynamoDB Local updates its indexes in
 * the same call, so here each table with GSIs gets a shadow table in the same DynamoDB (same key
 * schema, same GSIs, no stream, named `<table>.index-lag`) that follows the table `lagMs` late,
 * and the proxy serves GSI reads from the shadow.
 *
 * How the shadow follows:
 * - it is built when the proxy first meets the table (a write to it or a read of its index),
 *   before that request goes on: created afresh, then filled by a consistent Scan of the table;
 * - after every write the proxy passed on and DynamoDB answered 200, the written items' images
 *   are read back from the table (consistent BatchGetItem, one reader at a time, so a later read
 *   never sees less than an earlier one), and each image is put into the shadow (an absent one
 *   deleted) `lagMs` after the write was answered, in the order the writes were answered;
 * - a CreateTable, UpdateTable or DeleteTable through the proxy, a PartiQL write or a failed
 *   shadow write retires the table's shadow (built again, with the indexes then, on next use).
 *
 * Not followed: writes bypassing the proxy, TTL deletions. One lagging proxy per DynamoDB.
 */
import {
  type AttributeValue,
  BatchGetItemCommand,
  type BatchGetItemCommandOutput,
  BatchWriteItemCommand,
  type BatchWriteItemCommandOutput,
  CreateTableCommand,
  DeleteTableCommand,
  type DynamoDBClient,
  ResourceNotFoundException,
  ScanCommand,
  type TableDescription,
  type WriteRequest,
} from '@aws-sdk/client-dynamodb';
import { dynamoDbClient } from '../aws/clients.ts';
import { DEFAULT_REGION, describeTable } from './create-resources.ts';
import type { WrittenItem } from './dynamodb-item-keys.ts';

type Item = Record<string, AttributeValue>;

export interface IndexLagOptions {
  /** The DynamoDB the proxy forwards to, where the shadows are kept too. */
  target: string;
  lagMs: number;
  region?: string;
}

export interface IndexLag {
  /** Builds the shadows of these tables that are not built yet; resolves once they are. */
  prepare(tableNames: readonly string[]): Promise<void>;
  /** DynamoDB answered these writes 200 just now: their images reach the shadows lagMs from now. */
  written(items: readonly WrittenItem[]): void;
  /** The table to serve a read of this index from: the shadow for a GSI, else undefined. */
  shadowFor(tableName: string, indexName: string): Promise<string | undefined>;
  isShadow(tableName: string): boolean;
  /** The table was created, changed or deleted: its shadow goes, and is built again on next use. */
  forget(tableName: string): void;
  forgetAll(): void;
  /** Writes whose images are not in their shadow yet. */
  pending(): number;
  /** Shadow writes that failed (the shadow was retired and is built again on next use). */
  failures(): number;
  /** Resolves once every write answered before the call has reached its shadow. */
  settled(): Promise<void>;
  /** Stops following and deletes the shadows. */
  stop(): Promise<void>;
}

interface Shadow {
  table: string;
  name: string;
  keyNames: string[];
  indexNames: Set<string>;
  retired: boolean;
}

/** What building a table's shadow found: a shadow, a table without GSIs, or no table (yet). */
type ShadowState = Shadow | 'no-indexes' | 'no-table';

/** One write's item on its way to the shadow: its image is read, then applied at `due`. */
interface Pending {
  seq: number;
  shadow: Shadow;
  key: Item;
  id: string;
  due: number;
  image?: Item | undefined;
}

const SHADOW_SUFFIX = '.index-lag';
const BATCH_GET_MAX = 100;
const BATCH_WRITE_MAX = 25;
const ACTIVE_TIMEOUT_MS = 30_000;

export const shadowTableName = (tableName: string) => `${tableName}${SHADOW_SUFFIX}`;

export function startIndexLag(options: IndexLagOptions): IndexLag {
  const { lagMs } = options;
  const client = dynamoDbClient({
    endpoint: options.target,
    region: options.region ?? DEFAULT_REGION,
    deadlines: 'attempt',
  });
  const shadows = shadowTables(client, () => {
    failed++;
  });
  // A write's items go through these stages in the order the writes were answered.
  const toRead: Pending[] = [];
  let inRead: Pending[] = [];
  const scheduled: Pending[] = [];
  let inApply: Pending[] = [];
  const waiters: Array<{ seq: number; resolve: () => void }> = [];
  let lastSeq = 0;
  /** Every write up to this one has reached its shadow (or was dropped with it). */
  let doneSeq = 0;
  let failed = 0;
  let stopped = false;
  let reading: Promise<void> | undefined;
  let applying: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;

  const forget = (table: string) => shadows.forget(table);

  /** Wakes whoever waits in settled() for writes that are through (applied or dropped). */
  const progress = () => {
    const heads = [toRead[0], inRead[0], scheduled[0], inApply[0]].flatMap((entry) =>
      entry ? [entry.seq] : [],
    );
    doneSeq = heads.length > 0 ? Math.min(...heads) - 1 : lastSeq;
    for (let i = waiters.length - 1; i >= 0; i--) {
      const waiter = waiters[i];
      if (waiter && waiter.seq <= doneSeq) {
        waiters.splice(i, 1);
        waiter.resolve();
      }
    }
  };

  /** The images of what was written, one batch at a time, in the order the writes were answered. */
  const readLoop = async () => {
    while (toRead.length > 0 && !stopped) {
      inRead = toRead.splice(0).filter((entry) => !entry.shadow.retired);
      try {
        const images = await readImages(client, inRead);
        for (const entry of inRead) entry.image = images.get(entry.id);
        scheduled.push(...inRead);
      } catch {
        failed++;
        for (const table of new Set(inRead.map((entry) => entry.shadow.table))) forget(table);
      }
      inRead = [];
      progress();
      arm();
    }
  };

  const startReading = () => {
    if (reading || stopped) return;
    reading = readLoop().finally(() => {
      reading = undefined;
      if (toRead.length > 0) startReading();
    });
  };

  const arm = () => {
    if (timer || applying || stopped) return;
    const head = scheduled[0];
    if (!head) return;
    timer = setTimeout(
      () => {
        timer = undefined;
        applying = applyDue().finally(() => {
          applying = undefined;
          arm();
        });
      },
      Math.max(0, head.due - Date.now()),
    );
  };

  /** Applies every image that is due: the last of each item only, as they all show at once. */
  const applyDue = async () => {
    const now = Date.now();
    let count = 0;
    while (count < scheduled.length && (scheduled[count]?.due ?? Infinity) <= now) count++;
    inApply = scheduled.splice(0, count);
    const last = new Map<string, Pending>();
    for (const entry of inApply) {
      if (!entry.shadow.retired) last.set(`${entry.shadow.name}\n${entry.id}`, entry);
    }
    await Promise.all(
      [...groupBy(last.values(), (entry) => entry.shadow)].map(async ([shadow, entries]) => {
        try {
          await batchWriteAll(
            client,
            shadow.name,
            entries.map(({ key, image }) =>
              image ? { PutRequest: { Item: image } } : { DeleteRequest: { Key: key } },
            ),
          );
        } catch {
          failed++;
          forget(shadow.table);
        }
      }),
    );
    inApply = [];
    progress();
  };

  return {
    isShadow,
    prepare: async (tableNames) => {
      await Promise.all([...new Set(tableNames)].map(shadows.shadowOf));
    },
    written: (items) => {
      if (stopped) return;
      const due = Date.now() + lagMs;
      for (const item of items) {
        // Built before the write went on (prepare); gone only if forgotten meanwhile, and then
        // the next build copies the table as it is by then (a write answered while that build
        // scans may be missed: only after a table change through the proxy or a failure).
        const shadow = shadows.built(item.tableName);
        const key = shadow && sdkKey(item.attributes, shadow.keyNames);
        if (!shadow || !key) continue;
        toRead.push({ seq: ++lastSeq, shadow, key, id: keyId(key, shadow.keyNames), due });
      }
      startReading();
    },
    shadowFor: async (tableName, indexName) => {
      const shadow = await shadows.shadowOf(tableName);
      return shadow?.indexNames.has(indexName) ? shadow.name : undefined;
    },
    forget,
    forgetAll: shadows.forgetAll,
    pending: () => lastSeq - doneSeq,
    failures: () => failed,
    settled: () =>
      new Promise<void>((resolve) => {
        if (lastSeq <= doneSeq || stopped) resolve();
        else waiters.push({ seq: lastSeq, resolve });
      }),
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await Promise.allSettled([reading, applying]);
      for (const waiter of waiters.splice(0)) waiter.resolve();
      await shadows.deleteAll();
      client.destroy();
    },
  };
}

/**
 * The shadows, table by table: built on first use, one build or deletion of a table's shadow at
 * a time, in order (a rebuild never meets the deletion of the one it replaces).
 */
function shadowTables(client: DynamoDBClient, onDeleteFailed: () => void) {
  /** Per table, what building its shadow found (or will find). */
  const states = new Map<string, Promise<ShadowState>>();
  /** The shadows built and in use, for the writes' bookkeeping, which must not wait. */
  const built = new Map<string, Shadow>();
  /** Per table, the tail of its builds and deletions. */
  const chains = new Map<string, Promise<unknown>>();

  const serialized = <T>(table: string, work: () => Promise<T>): Promise<T> => {
    const next = (chains.get(table) ?? Promise.resolve()).then(work, work);
    chains.set(
      table,
      next.catch(() => {}),
    );
    return next;
  };

  const stateOf = (table: string): Promise<ShadowState> => {
    const known = states.get(table);
    if (known) return known;
    const state: Promise<ShadowState> = serialized(table, () => buildShadow(client, table)).then(
      (found) => {
        if (states.get(table) !== state) {
          // Forgotten while it was being built: a later build replaces it.
          if (typeof found === 'object') found.retired = true;
        } else if (typeof found === 'object') {
          built.set(table, found);
        } else if (found === 'no-table') {
          // Not there yet: asked again next time.
          states.delete(table);
        }
        return found;
      },
      (error: unknown) => {
        if (states.get(table) === state) states.delete(table);
        throw error;
      },
    );
    states.set(table, state);
    return state;
  };

  const forget = (table: string) => {
    const shadow = built.get(table);
    if (shadow) shadow.retired = true;
    built.delete(table);
    states.delete(table);
    serialized(table, () => deleteTableIfExists(client, shadowTableName(table))).catch(onDeleteFailed);
  };

  return {
    /** The table's shadow, built first if need be; undefined for a table without GSIs (or none). */
    shadowOf: async (table: string): Promise<Shadow | undefined> => {
      if (isShadow(table)) return undefined;
      const state = await stateOf(table);
      return typeof state === 'object' && !state.retired ? state : undefined;
    },
    built: (table: string): Shadow | undefined => built.get(table),
    forget,
    forgetAll: () => {
      for (const table of [...states.keys()]) forget(table);
    },
    deleteAll: async () => {
      const tables = [...states.keys()];
      states.clear();
      built.clear();
      await Promise.allSettled(
        tables.map((table) => serialized(table, () => deleteTableIfExists(client, shadowTableName(table)))),
      );
      await Promise.allSettled([...chains.values()]);
    },
  };
}

function isShadow(tableName: string): boolean {
  return tableName.endsWith(SHADOW_SUFFIX);
}

function groupBy<T, K>(values: Iterable<T>, keyOf: (value: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const value of values) {
    const key = keyOf(value);
    const group = groups.get(key);
    if (group) group.push(value);
    else groups.set(key, [value]);
  }
  return groups;
}

/** A fresh shadow of the table (dropping one left by an earlier run), filled with its items. */
async function buildShadow(client: DynamoDBClient, table: string): Promise<ShadowState> {
  const description = await describeTable(client, table);
  if (!description) return 'no-table';
  const indexes = description.GlobalSecondaryIndexes ?? [];
  if (indexes.length === 0) return 'no-indexes';
  const name = shadowTableName(table);
  await deleteTableIfExists(client, name);
  await client.send(
    new CreateTableCommand({
      TableName: name,
      AttributeDefinitions: description.AttributeDefinitions,
      KeySchema: description.KeySchema,
      BillingMode: 'PAY_PER_REQUEST',
      GlobalSecondaryIndexes: indexes.map((index) => ({
        IndexName: index.IndexName,
        KeySchema: index.KeySchema,
        Projection: index.Projection,
      })),
      // No stream: whoever reads the table's stream must never see the shadow's writes.
    }),
  );
  await waitUntil(client, name, (found) => isActive(found));
  let ExclusiveStartKey: Item | undefined;
  do {
    const page = await client.send(
      new ScanCommand({ TableName: table, ConsistentRead: true, ExclusiveStartKey }),
    );
    await batchWriteAll(
      client,
      name,
      (page.Items ?? []).map((Item) => ({ PutRequest: { Item } })),
    );
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return {
    table,
    name,
    keyNames: (description.KeySchema ?? []).flatMap((key) => (key.AttributeName ? [key.AttributeName] : [])),
    indexNames: new Set(indexes.flatMap((index) => (index.IndexName ? [index.IndexName] : []))),
    retired: false,
  };
}

/** The current image of each item (by id), consistent reads; an item absent has none. */
async function readImages(client: DynamoDBClient, entries: readonly Pending[]): Promise<Map<string, Item>> {
  const images = new Map<string, Item>();
  const byTable = groupBy(entries, (entry) => entry.shadow);
  for (const [shadow, tableEntries] of byTable) {
    const keys = [...new Map(tableEntries.map((entry) => [entry.id, entry.key])).values()];
    for (let start = 0; start < keys.length; start += BATCH_GET_MAX) {
      let Keys: Item[] | undefined = keys.slice(start, start + BATCH_GET_MAX);
      while (Keys && Keys.length > 0) {
        const result: BatchGetItemCommandOutput = await client.send(
          new BatchGetItemCommand({ RequestItems: { [shadow.table]: { Keys, ConsistentRead: true } } }),
        );
        for (const item of result.Responses?.[shadow.table] ?? []) {
          images.set(keyId(item, shadow.keyNames), item);
        }
        Keys = result.UnprocessedKeys?.[shadow.table]?.Keys;
      }
    }
  }
  return images;
}

/** Every request written, 25 at a time, unprocessed ones sent again. */
async function batchWriteAll(
  client: DynamoDBClient,
  tableName: string,
  requests: readonly WriteRequest[],
): Promise<void> {
  for (let start = 0; start < requests.length; start += BATCH_WRITE_MAX) {
    let chunk: WriteRequest[] | undefined = requests.slice(start, start + BATCH_WRITE_MAX);
    for (let attempt = 0; chunk && chunk.length > 0; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(20 * attempt, 200)));
      const result: BatchWriteItemCommandOutput = await client.send(
        new BatchWriteItemCommand({ RequestItems: { [tableName]: chunk } }),
      );
      chunk = result.UnprocessedItems?.[tableName];
    }
  }
}

async function deleteTableIfExists(client: DynamoDBClient, TableName: string): Promise<void> {
  try {
    await client.send(new DeleteTableCommand({ TableName }));
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return;
    throw error;
  }
  // DynamoDB takes a while to delete a table (DynamoDB Local none): a new one waits for it.
  await waitUntil(client, TableName, (found) => found === undefined);
}

function isActive(table: TableDescription | undefined): boolean {
  return (
    table?.TableStatus === 'ACTIVE' &&
    (table.GlobalSecondaryIndexes ?? []).every((index) => index.IndexStatus === 'ACTIVE')
  );
}

async function waitUntil(
  client: DynamoDBClient,
  TableName: string,
  done: (table: TableDescription | undefined) => boolean,
): Promise<void> {
  const deadline = Date.now() + ACTIVE_TIMEOUT_MS;
  while (!done(await describeTable(client, TableName))) {
    if (Date.now() > deadline) throw new Error(`index lag: table ${TableName} did not settle in time`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A written item's key as the SDK sends it, from the request's DynamoDB JSON (a binary value is
 * base64 there, bytes in the SDK); undefined when a key attribute is missing (DynamoDB refused it).
 */
function sdkKey(attributes: Record<string, unknown>, keyNames: readonly string[]): Item | undefined {
  const key: Item = {};
  for (const name of keyNames) {
    const value = attributes[name] as { S?: unknown; N?: unknown; B?: unknown } | undefined;
    if (typeof value?.S === 'string') key[name] = { S: value.S };
    else if (typeof value?.N === 'string') key[name] = { N: value.N };
    else if (typeof value?.B === 'string') key[name] = { B: Buffer.from(value.B, 'base64') };
    else return undefined;
  }
  return key;
}

/** One string per item: its key values, bytes as base64, so a request's key and an image's meet. */
function keyId(item: Item, keyNames: readonly string[]): string {
  return JSON.stringify(
    keyNames.map((name) => {
      const value = item[name];
      if (value?.B !== undefined) return { B: Buffer.from(value.B).toString('base64') };
      return value?.S !== undefined ? { S: value.S } : { N: value?.N };
    }),
  );
}
