/**
 * No item is written by the transactions of two different records. On DynamoDB two transactions
 * that touch one item at the same moment cancel each other (TransactionConflict), so an item that
 * writes of different records all touch (a list counter, a list revision, a tag's usage count, a
 * comment thread's counts, a comment's reaction counts) turns unrelated writes into conflicts and
 * queues them on one item. Shared bookkeeping belongs in a transaction's tally
 * (shared/data/tally.ts), applied afterwards by a transaction of its own.
 *
 * Runs after the integration project, from the writes its service recorded
 * (FSM_RECORD_TRANSACTIONS, shared/data/transaction-recorder.ts): the file of this vitest run
 * (FSM_TEST_RECORDED_TRANSACTIONS, set by test/support/global-setup.ts) when the integration
 * project ran in it, else the newest recording of an earlier run. Without one it skips and says so.
 *
 * The rule, over the successful TransactWriteItems after the service was ready (the seed's
 * writes, made before any request, are setup and never meet another write):
 * - A transaction's own item is the first item it puts, updates or deletes that is not
 *   bookkeeping: not a counter (an Update that ADDs), a tally (put with entity `tally`, or the
 *   delete of one), nor an outbox event. Record writes start with the record's item.
 * - Its record is the id of that item: the sort key when it is an id (so a record's items of
 *   other kinds, keyed by its id, are its own: a user's credential, a vehicle's location), the
 *   workspace for the workspace's singletons (`T#<ws>` / `WORKSPACE`, `SETTINGS#…`), else the
 *   whole key (a reaction, an association: records whose events name their parent, the comment
 *   or the relation, which would hide their shared counts). Its type is the subject of its
 *   first outbox event when that names this id, else the item's entity (as the recording's Puts
 *   of that key name it) or, failing that, its key pattern.
 * - A transaction with no own item belongs to its event's subject; without an event either it
 *   is a tally's application, which belongs to no record: the deferred bookkeeping itself, which
 *   meets other appliers by design and retries (tally.ts).
 * - Every key a transaction puts, updates or deletes (a ConditionCheck writes nothing) is written
 *   by its record. A key written by two or more records fails, unless `allowed` names it (with
 *   the record types that may share it, and why). The failure lists one line per key pattern
 *   (ids as `<id>`, the leading workspace id as `<ws>`): its entity, how many such keys, two of
 *   the records, and how many single-item writes (PutItem, UpdateItem, DeleteItem: no record, not
 *   judged; each is refused while a transaction holds the item) it took besides.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type RecordedItem,
  type RecordedWrite,
  type RecordingLine,
  recordedWrite,
} from '../../shared/data/transaction-recorder.ts';
import { recordedTransactionsDir } from '../support/global-setup.ts';

/** A key written by the transactions of several records by design, and why. */
interface Allowed {
  /** Tested against the key's pattern, `<pk> / <sk>` with ids as placeholders. */
  key: RegExp;
  /** The record types that may share it (every writer's type must match); any when absent. */
  records?: RegExp;
  /** The record the key belongs to (its id is the key's sort key) writes it too, whatever its type. */
  besidesItsOwn?: boolean;
  reason: string;
}

const allowed: readonly Allowed[] = [
  {
    key: /^T#<ws> \/ SYNC_HEAD$/,
    records: /^sync_feed$/,
    reason:
      "the sync feeds' head: written only by the sync indexer, with the feed entries it gives positions, " +
      'one workspace batch after another (a second indexer loses on its version and reads it again)',
  },
  {
    key: /^T#<ws>#SYNC_INSTALL \/ /,
    reason:
      'an app installation: its pushed mutations apply one after another, each change carrying the ' +
      'installation forward in its own transaction (at most once); two pushes of one installation meet on it ' +
      'only when the app sends twice at once',
  },
  {
    key: /^REALM#<realm>#EMAIL \/ <email>$/,
    reason: 'e-mail guard: two users meet on it only when they claim the same e-mail',
  },
  {
    key: /^T#<ws>#VEHICLE_PLATE \/ /,
    records: /^vehicle$/,
    reason: 'license-plate guard: two vehicles meet on it only when they claim the same plate',
  },
  {
    key: /^T#<ws>#SKILL_KEY \/ /,
    records: /^skill$/,
    reason: 'skill short-key guard: two skills meet on it only when they claim the same short key',
  },
  {
    key: /^T#<ws>#CO_SLUG \/ /,
    records: /^custom_object_definition$/,
    reason: 'slug guard: two custom-object definitions meet on it only when they claim the same slug',
  },
  {
    key: /^T#<ws>#CASE_TOUR \/ <id>$/,
    records: /^tour$/,
    reason: "a case's open-tour guard: two tours meet on it only when they claim the same case",
  },
  {
    key: /^T#<ws>#CASE \/ <id>$/,
    records: /^tour$/,
    besidesItsOwn: true,
    reason:
      'a booking is a write of the tour that takes the case (booking.service.ts, booking-batch.ts): it ' +
      'schedules the cases it inserts with it; the case’s own writes meet it only over that case',
  },
  {
    key: /^T#<ws>#(TOUR \/ <id>|L#TOUR#SEARCH \/ .*)$/,
    records: /^tour$/,
    reason:
      'a booking that moves a case writes the tour it leaves with the one that takes it, and a batch of ' +
      'bookings the tours of its day: tours meet there only over the cases they hand over',
  },
  {
    key: /^T#<ws>#CASE \/ <id>$/,
    records: /^maintenance-occurrence$/,
    besidesItsOwn: true,
    reason:
      'maintenance generation creates up to 10 cases in one transaction, led by their occurrence claims ' +
      '(generated-case-writes.ts): each case a new key created only if absent, which no other writer can meet ' +
      'there; afterwards the case alone writes it',
  },
  {
    key: /^T#<ws>#MPLAN_OCC#<id> \/ /,
    records: /^(maintenance-occurrence|case)$/,
    reason:
      "an occurrence claim: created by generation with its case, dropped by that case's own delete when an " +
      'edit takes the occurrence out of the rule; two generators meet on it only over the same occurrence',
  },
  {
    key: /^T#<ws>#SHIFT_TOUR \/ <id>$/,
    records: /^tour$/,
    reason: "a shift's planned-tour guard: two tours meet on it only when they plan the same shift",
  },
  {
    key: /^T#<ws>#COMMENT_DEDUP \/ /,
    records: /^comment$/,
    reason: 'duplicate guard: two comments meet on it only when they are the same submission',
  },
  {
    key: /^T#<ws>#COMMENT_FILE \/ <id>$/,
    records: /^(comment_attachment|comment)$/,
    reason: 'an upload, claimed once by the comment it is attached to (a claim: a guard of the file)',
  },
  {
    key: /^T#<ws>#(PRINCIPAL \/ <id>|L#USER#SEARCH \/ .*)$/,
    records: /^(tenant|user)$/,
    reason: 'a user and its search tokens, written with its workspace (the owner) or a transfer (both users)',
  },
  {
    key: /^T#<ws> \/ OWNER$/,
    records: /^(tenant|user)$/,
    reason: 'who owns the workspace: set at its creation, moved by a transfer (two transfers do conflict)',
  },
  {
    key: /^T#<ws>#CO_INST#<id> \/ <id>$/,
    records: /^(custom_object\..+|custom_object_association)$/,
    reason: 'an instance’s links (its relation fields) are its data, moved by its associations’ transactions',
  },
];

// --- The rule -------------------------------------------------------------------------------

const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const anId = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const workspacePartition = /^T#([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** A key as a pattern: the leading workspace id `<ws>`, other ids `<id>`, values by kind. */
function keyPattern(pk: string, sk: string): string {
  const ids = (text: string) =>
    text
      .replace(/^T#[0-9a-f-]{36}/i, 'T#<ws>')
      .replace(uuid, '<id>')
      .replace(/\d{4}-\d{2}-\d{2}T[\d:.]+Z/g, '<time>')
      .replace(/\d{4}-\d{2}-\d{2}/g, '<date>')
      .replace(/[^\s#/@]+@[^\s#/]+/g, '<email>');
  const partition = ids(pk).replace(/^REALM#[^#]+/, 'REALM#<realm>');
  // Parts of a search token's key are joined by U+0001 (sort-key.ts), shown as `·`.
  let sort = ids(sk).replaceAll('\u0001', '·');
  if (partition.endsWith('#SEARCH')) sort = sort.replace(/^[^·]*·/, '<token>·');
  return `${partition} / ${sort}`;
}

const keyOf = (item: { pk: string; sk: string }) => `${item.pk}\u0000${item.sk}`;

/** The entity each key was put with in the recording (a Delete or Update carries none). */
function entitiesOf(writes: readonly RecordedWrite[]): Map<string, string> {
  const entities = new Map<string, string>();
  for (const write of writes) {
    for (const item of write.items) if (item.entity) entities.set(keyOf(item), item.entity);
  }
  return entities;
}

interface WriteRecord {
  /** What tells records apart (see the header). */
  id: string;
  /** What `allowed` matches: the event subject's type, or the own item's entity. */
  type: string;
  /** For a reader: type and id, and the event when it names another record. */
  name: string;
}

function isBookkeeping(item: RecordedItem, entities: ReadonlyMap<string, string>): boolean {
  if (item.op === 'ConditionCheck') return true;
  if (item.op === 'Update') return item.add === true;
  // A tally's key says what it is even when its put was not recorded (written before `ready`).
  if (item.pk.endsWith('#TALLY')) return true;
  const entity = entities.get(keyOf(item));
  return entity === 'tally' || entity === 'event';
}

/** Whose write a transaction is (see the header); undefined for a tally's application. */
function recordOf(write: RecordedWrite, entities: ReadonlyMap<string, string>): WriteRecord | undefined {
  const event = write.events[0];
  const own = write.items.find((item) => !isBookkeeping(item, entities));
  if (!own) {
    if (!event) return undefined;
    return {
      id: event.resource_id,
      type: event.resource_type,
      name: `${event.resource_type} ${event.resource_id}`,
    };
  }
  const id = anId.test(own.sk) ? own.sk : (workspacePartition.exec(own.pk)?.[1] ?? `${own.pk} / ${own.sk}`);
  if (event?.resource_id === id)
    return { id, type: event.resource_type, name: `${event.resource_type} ${id}` };
  const type = entities.get(keyOf(own)) ?? keyPattern(own.pk, own.sk);
  return { id, type, name: `${type} ${id}${event ? ` (${event.type})` : ''}` };
}

interface HotKey {
  pattern: string;
  entity: string;
  /** How many keys of this pattern two or more records wrote. */
  keys: number;
  /** Two records that wrote one of them. */
  records: [string, string];
  /** Single-item writes to keys of this pattern. */
  singleWrites: number;
}

/** The writes of the tests: after the service's `ready` mark (before it: the seed), if any. */
function trafficOf(lines: readonly RecordingLine[]): RecordedWrite[] {
  let start = 0;
  lines.forEach((line, index) => {
    if ('mark' in line) start = index + 1;
  });
  return lines.slice(start).filter((line): line is RecordedWrite => !('mark' in line));
}

/** The keys written by the transactions of two or more records, by pattern, less `allowedKeys`. */
function hotKeys(writes: readonly RecordedWrite[], allowedKeys: readonly Allowed[] = allowed): HotKey[] {
  const entities = entitiesOf(writes);
  const writers = new Map<
    string,
    { pattern: string; id?: string; entity?: string; records: Map<string, WriteRecord> }
  >();
  const singles = new Map<string, number>();
  for (const write of writes) {
    if (write.single) {
      for (const item of write.items) {
        const pattern = keyPattern(item.pk, item.sk);
        singles.set(pattern, (singles.get(pattern) ?? 0) + 1);
      }
      continue;
    }
    const record = recordOf(write, entities);
    if (!record) continue;
    for (const item of write.items) {
      if (item.op === 'ConditionCheck') continue;
      const key = keyOf(item);
      let seen = writers.get(key);
      if (!seen) {
        seen = {
          pattern: keyPattern(item.pk, item.sk),
          ...(anId.test(item.sk) ? { id: item.sk } : {}),
          records: new Map(),
        };
        writers.set(key, seen);
      }
      seen.entity ??= entities.get(key);
      if (!seen.records.has(record.id)) seen.records.set(record.id, record);
    }
  }
  const hot = new Map<string, HotKey>();
  for (const { pattern, id, entity, records } of writers.values()) {
    if (records.size < 2) continue;
    const excused = allowedKeys.some(
      (entry) =>
        entry.key.test(pattern) &&
        [...records.values()].every(
          (record) =>
            !entry.records || entry.records.test(record.type) || (entry.besidesItsOwn && record.id === id),
        ),
    );
    if (excused) continue;
    const known = hot.get(pattern);
    if (known) {
      known.keys += 1;
      continue;
    }
    const [first, second] = [...records.values()];
    hot.set(pattern, {
      pattern,
      entity: entity ?? '',
      keys: 1,
      records: [first?.name ?? '', second?.name ?? ''],
      singleWrites: singles.get(pattern) ?? 0,
    });
  }
  return [...hot.values()].sort((a, b) => a.pattern.localeCompare(b.pattern));
}

/** One line per hot pattern, readable in a failure. */
function describeHotKey(hot: HotKey): string {
  const singles = hot.singleWrites ? `; ${hot.singleWrites} single writes too` : '';
  const keys = `${hot.keys} key${hot.keys === 1 ? '' : 's'}`;
  return `${hot.pattern} (${hot.entity || 'no entity'}): ${keys}, e.g. written by ${hot.records[0]} and ${hot.records[1]}${singles}`;
}

// --- The recording --------------------------------------------------------------------------

function recordingFile(): string | undefined {
  const named = process.env.FSM_TEST_RECORDED_TRANSACTIONS;
  if (named) return named;
  try {
    return readdirSync(recordedTransactionsDir)
      .filter((name) => name.endsWith('.jsonl'))
      .map((name) => join(recordedTransactionsDir, name))
      .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
  } catch {
    return undefined;
  }
}

function readRecording(file: string | undefined): RecordingLine[] {
  if (!file) return [];
  try {
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as RecordingLine);
  } catch {
    return [];
  }
}

const file = recordingFile();
const traffic = trafficOf(readRecording(file));
const transactions = traffic.filter((write) => !write.single);

describe('The keys of the integration tests’ transactions', () => {
  it('writes no key from the transactions of two different records', (context) => {
    if (transactions.length === 0) {
      context.skip(
        `no transactions recorded at ${file ?? recordedTransactionsDir}: run the integration project first`,
      );
    }

    const hot = hotKeys(traffic).map(describeHotKey);

    expect(hot, `${hot.length} hot key patterns in ${transactions.length} transactions of ${file}`).toEqual(
      [],
    );
  });
});

// --- The rule on a hand-made recording ------------------------------------------------------

const ws = '0190a6b2-0000-7000-8000-000000000001';
const caseA = '0190a6b2-0000-7000-8000-00000000000a';
const caseB = '0190a6b2-0000-7000-8000-00000000000b';
const userA = '0190a6b2-0000-7000-8000-0000000000c1';
const userB = '0190a6b2-0000-7000-8000-0000000000c2';

const put = (pk: string, sk: string, entity: string, more: Record<string, unknown> = {}) => ({
  Put: { TableName: 't', Item: { pk, sk, entity, ...more } },
});

let events = 0;
/** An outbox event's item, with an id of its own (events = 1, 2, …). */
const eventPut = (type: string, resourceType: string, id: string) =>
  put(`T#${ws}#EVENT`, `event-${++events}`, 'event', {
    event: { type, resource: { type: resourceType, id } },
  });

const counterAdd = (pk: string, sk: string) => ({
  Update: {
    TableName: 't',
    Key: { pk, sk },
    UpdateExpression: 'SET entity = :entity ADD #counter :by',
    ExpressionAttributeValues: { ':entity': 'counter', ':by': 1 },
  },
});

/** What the recorder makes of a transaction as the document client sends it. */
function transaction(...items: Array<Record<string, unknown>>): RecordedWrite {
  const written = recordedWrite('TransactWriteItemsCommand', { TransactItems: items });
  if (!written) throw new Error('a transaction is recorded');
  return written;
}

/** A case's write: its item, further writes, its event. */
const caseWrite = (caseId: string, ...extra: Array<Record<string, unknown>>) =>
  transaction(put(`T#${ws}#CASE`, caseId, 'case'), ...extra, eventPut('case.updated', 'case', caseId));

describe('The rule of transaction keys, on a hand-made recording', () => {
  it('records each item’s operation, key and entity, and the event’s subject', () => {
    const written = caseWrite(caseA, counterAdd(`T#${ws}#COUNT`, 'CASE#all'));

    expect(written.items).toEqual([
      { op: 'Put', pk: `T#${ws}#CASE`, sk: caseA, entity: 'case' },
      { op: 'Update', pk: `T#${ws}#COUNT`, sk: 'CASE#all', entity: 'counter', add: true },
      { op: 'Put', pk: `T#${ws}#EVENT`, sk: expect.stringMatching(/^event-/), entity: 'event' },
    ]);
    expect(written.events).toEqual([{ type: 'case.updated', resource_type: 'case', resource_id: caseA }]);
  });

  it('finds a counter that the transactions of two cases both write', () => {
    const writes = [
      caseWrite(caseA, counterAdd(`T#${ws}#COUNT`, 'CASE#all')),
      caseWrite(caseB, counterAdd(`T#${ws}#COUNT`, 'CASE#all')),
    ];

    expect(hotKeys(writes).map(describeHotKey)).toEqual([
      `T#<ws>#COUNT / CASE#all (counter): 1 key, e.g. written by case ${caseA} and case ${caseB}`,
    ]);
  });

  it('lets one record’s transactions write its items again and again, with or without an event', () => {
    const credential = put(`T#${ws}#CREDENTIAL`, userA, 'credential');
    const writes = [
      transaction(
        put(`T#${ws}#PRINCIPAL`, userA, 'principal'),
        credential,
        eventPut('user.created', 'user', userA),
      ),
      transaction(credential),
      caseWrite(caseA, counterAdd(`T#${ws}#COUNT`, `CASE#NEW#assignee_id=${userA}`)),
      caseWrite(caseA, counterAdd(`T#${ws}#COUNT`, `CASE#NEW#assignee_id=${userA}`)),
    ];

    expect(hotKeys(writes)).toEqual([]);
  });

  it('tells reactions apart though their events name the comment', () => {
    const comment = '0190a6b2-0000-7000-8000-0000000000d1';
    const reaction = (user: string) =>
      transaction(
        put(
          `T#${ws}#COMMENT_REACTION#core:case#${caseA}#${user}`,
          `${comment}#thumbs_up`,
          'comment_reaction',
        ),
        counterAdd(`T#${ws}#COMMENT`, comment),
        eventPut('comment.reaction', 'comment', comment),
      );

    expect(hotKeys([reaction(userA), reaction(userB)]).map((hot) => hot.pattern)).toEqual([
      'T#<ws>#COMMENT / <id>',
    ]);
  });

  it('counts a tally’s application as no record’s write, and the seed before `ready` as none', () => {
    const tally = { pk: `T#${ws}#COUNT#TALLY`, sk: '0190a6b2-0000-7000-8000-0000000000f1' };
    const seed = transaction(
      put(`T#${ws}`, 'WORKSPACE', 'workspace'),
      counterAdd(`T#${ws}#COUNT`, 'CASE#all'),
    );
    const lines: RecordingLine[] = [
      seed,
      { mark: 'ready' },
      caseWrite(caseA, put(tally.pk, tally.sk, 'tally')),
      transaction({ Delete: { TableName: 't', Key: tally } }, counterAdd(`T#${ws}#COUNT`, 'CASE#all')),
      caseWrite(caseB, counterAdd(`T#${ws}#COUNT`, 'CASE#all')),
    ];

    expect(hotKeys(trafficOf(lines))).toEqual([]);
    expect(hotKeys(lines.filter((line): line is RecordedWrite => !('mark' in line)))).toHaveLength(1);
  });

  it('allows a guard only to the record types its entry names', () => {
    const guard = put(`T#${ws}#CASE_TOUR`, caseA, 'case_tour');
    const writes = [caseWrite(caseA, guard), caseWrite(caseB, guard)];

    expect(hotKeys(writes).map((hot) => hot.pattern)).toEqual(['T#<ws>#CASE_TOUR / <id>']);
  });

  it('lets bookings (writes of a tour) schedule cases, and no other record write a case', () => {
    const tour = '0190a6b2-0000-7000-8000-0000000000e1';
    const booking = transaction(
      put(`T#${ws}#TOUR`, tour, 'tour'),
      eventPut('tour.updated', 'tour', tour),
      put(`T#${ws}#CASE`, caseA, 'case'),
      put(`T#${ws}#CASE`, caseB, 'case'),
    );

    expect(hotKeys([booking, caseWrite(caseA), caseWrite(caseB)])).toEqual([]);
    expect(hotKeys([caseWrite(caseA, put(`T#${ws}#CASE`, caseB, 'case')), caseWrite(caseB)])).toHaveLength(1);
  });

  it('shows a key as a pattern of its kind', () => {
    expect(keyPattern(`T#${ws}#COUNT`, `CASE#NEW#assignee_id=${caseA}`)).toBe(
      'T#<ws>#COUNT / CASE#NEW#assignee_id=<id>',
    );
    expect(keyPattern('REALM#shared#EMAIL', 'owner@acme.test')).toBe('REALM#<realm>#EMAIL / <email>');
    expect(keyPattern(`T#${ws}#L#USER#SEARCH`, `olga\u0001${caseA}`)).toBe(
      'T#<ws>#L#USER#SEARCH / <token>·<id>',
    );
  });
});
