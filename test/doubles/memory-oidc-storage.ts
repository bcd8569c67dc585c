/**
 * The identity provider's adapters (shared/identity/oidc-storage.ts) over process memory, for
 * unit tests and throwaway providers. One call is one store: the returned factory serves every
 * realm, keyed like the table.
 */
import {
  type AdapterFactory,
  type ItemStore,
  itemStoreAdapterFactory,
  type StoredItem,
} from '../../shared/identity/oidc-storage.ts';

const nowSeconds = () => Math.floor(Date.now() / 1000);

export function memoryAdapterFactory(): AdapterFactory {
  return itemStoreAdapterFactory(memoryItemStore());
}

function memoryItemStore(): ItemStore {
  const items = new Map<string, StoredItem>();
  const key = (pk: string, sk: string) => `${pk}\u0000${sk}`;
  const copy = (item: StoredItem | undefined) => (item ? { ...item } : undefined);
  return {
    async get(pk, sk) {
      return copy(items.get(key(pk, sk)));
    },
    async put(item) {
      const previous = items.get(key(item.pk, item.sk));
      items.set(key(item.pk, item.sk), { ...item });
      return previous;
    },
    async delete(pk, sk) {
      const previous = items.get(key(pk, sk));
      items.delete(key(pk, sk));
      return previous;
    },
    async markConsumed(pk, sk, at) {
      const item = items.get(key(pk, sk));
      if (item) item.consumed = at;
    },
    async query(pk, prefix) {
      const now = nowSeconds();
      // Drop expired items as they are met, so a long-lived test process does not grow.
      for (const [k, item] of items)
        if (item.expires_at !== undefined && item.expires_at <= now) items.delete(k);
      return [...items.values()]
        .filter((item) => item.pk === pk && item.sk.startsWith(prefix))
        .map((item) => ({ ...item }));
    },
  };
}
