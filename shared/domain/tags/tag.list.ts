/** How tags are listed: by name, colour, creation, change, usage (their counter items) and id (README.md, "Lists", TAG). */
import type { ListSpec } from '../../data/list-index.ts';
import { byChange, byCreation, byId, collectionOf, text } from '../../data/list-patterns.ts';
import type { StoredTag } from './tag.schema.ts';

export const tagList: ListSpec<StoredTag> = {
  name: 'TAG',
  listed: () => true,
  orders: {
    name: { pattern: 'byName', index: 'gsi1', key: text('name') },
    color: { pattern: 'byColor', index: 'gsi2', key: text('color') },
    created_at: byCreation(),
    updated_at: byChange(),
    usage_count: {
      pattern: 'byUsage',
      index: 'gsi6',
      // The entries are the tags' usage counter items (tag-usage.store.ts): their `count`.
      key: (record) => {
        const entry = record as { count?: unknown; usage_count?: unknown };
        return Number(entry.count ?? entry.usage_count ?? 0);
      },
      maintainedBy: 'counter',
    },
    id: byId(),
  },
  basePartition: collectionOf('TAG'),
};
