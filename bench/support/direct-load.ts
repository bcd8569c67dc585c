/**
 * Records written straight into a bench service's table as their entity's list declaration
 * would write them on create: the item with its index attributes, the list's entry and token
 * items, and the list counters summed over the whole load (one ADD per counter at the end rather
 * than one per record). The outbox is skipped: no consumer needs those events in a bench.
 *
 * Import it dynamically, after pointing this process's data layer at the service's table
 * (FSM_DYNAMODB_ENDPOINT, FSM_TABLE_NAME): the table module reads them when loaded.
 */
import type { ListSpec } from '../../shared/data/list-index.ts';
import { indexedItem, listWrites } from '../../shared/data/list-index.ts';
import { workspaceScope } from '../../shared/data/list-patterns.ts';
import { incrementCounter, putRecords } from '../../shared/data/table.ts';

type Key = { pk: string; sk: string };

export class DirectLoad<R extends { id: string }> {
  private items: Array<{ key: Key; entity: string; record: Record<string, unknown> }> = [];
  private readonly counters = new Map<string, { key: Key; by: number }>();
  private readonly scope: ReturnType<typeof workspaceScope>;
  private readonly list: ListSpec<R>;
  private readonly entity: string;
  private readonly keyOf: (id: string) => Key;

  constructor(workspaceId: string, list: ListSpec<R>, entity: string, keyOf: (id: string) => Key) {
    this.scope = workspaceScope(workspaceId);
    this.list = list;
    this.entity = entity;
    this.keyOf = keyOf;
  }

  /** Queues a record, its list items and its counter changes. */
  add(record: R): void {
    this.items.push({
      key: this.keyOf(record.id),
      entity: this.entity,
      record: indexedItem(this.list, this.scope, record),
    });
    for (const write of listWrites(this.list, this.scope, undefined, record)) {
      if (write.kind === 'add') {
        const id = `${write.key.pk}\u0000${write.key.sk}`;
        const counter = this.counters.get(id) ?? { key: write.key, by: 0 };
        counter.by += write.by;
        this.counters.set(id, counter);
      } else if (write.kind === 'put') {
        this.items.push({ key: write.key, entity: write.entity, record: write.record });
      }
    }
  }

  /**
   * Puts the queued items. A busy emulator may miss a deadline: with `retries`, the same puts go
   * again (harmless), 2 s apart.
   */
  async flush(retries = 0): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await putRecords(this.items);
        break;
      } catch (error) {
        if (attempt >= retries) throw error;
        await new Promise((resolve) => setTimeout(resolve, 2000));
      }
    }
    this.items = [];
  }

  /** Adds the summed counter changes so far (once per load: the counters are ADDs). */
  async addCounters(): Promise<void> {
    for (const { key, by } of this.counters.values()) await incrementCounter(key, 'counter', 'count', by);
    this.counters.clear();
  }
}
