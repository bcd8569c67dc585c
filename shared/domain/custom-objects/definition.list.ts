import type { ListSpec } from '../../data/list-index.ts';
import { byChange, byCreation, collectionOf, text } from '../../data/list-patterns.ts';
import type { CustomObjectDefinition } from './definition.schema.ts';

/** Custom-object definitions: a workspace has tens to hundreds; every sort key an index anyway. */
export const definitionList: ListSpec<CustomObjectDefinition> = {
  name: 'CO_DEF',
  listed: () => true,
  orders: {
    slug: { pattern: 'bySlug', index: 'gsi1', key: (record) => [record.slug] },
    title: { pattern: 'byTitle', index: 'gsi2', key: text('title') },
    created_at: byCreation(),
    updated_at: byChange(),
  },
  basePartition: collectionOf('CO_DEF'),
};
