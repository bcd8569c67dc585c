/** Storage of custom-object definitions; their slugs are guard items of their own (keys.ts `definitionSlug`). */
import { resourceStore } from '../../data/resource-store.ts';
import { definitionList } from './definition.list.ts';
import type { CustomObjectDefinition } from './definition.schema.ts';

export const definitionStore = resourceStore<CustomObjectDefinition>(
  'custom_object_definition',
  'CO_DEF',
  definitionList,
);
