/** Storage of tags. Tag items hold no usage_count: that is a counter of its own (tag-usage.store.ts). */
import { resourceStore } from '../../data/resource-store.ts';
import { tagList } from './tag.list.ts';
import type { StoredTag } from './tag.schema.ts';

export const tagStore = resourceStore<StoredTag>('tag', 'TAG', tagList);
