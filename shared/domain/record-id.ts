/**
 * The id of a record a create makes: a new UUIDv7, unless the create runs for an offline app
 * that made the id itself (domain/sync/push.service.ts: "creates carry client-made UUIDs", so
 * the app can refer to the record before the server has seen it). A client-made id is used by
 * the first create of its scope only.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { v7 as uuidv7 } from 'uuid';

const madeIds = new AsyncLocalStorage<{ id?: string }>();

export function withRecordId<T>(id: string, operation: () => Promise<T>): Promise<T> {
  return madeIds.run({ id }, operation);
}

export function newRecordId(): string {
  const made = madeIds.getStore();
  if (made?.id) {
    const { id } = made;
    made.id = undefined;
    return id;
  }
  return uuidv7();
}
