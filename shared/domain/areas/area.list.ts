/** How areas are listed: by name, colour, creation, change and id (README.md, "Lists", AREA). */
import type { ListSpec } from '../../data/list-index.ts';
import { byChange, byCreation, byId, collectionOf, text } from '../../data/list-patterns.ts';
import type { Area } from './area.schema.ts';

export const areaList: ListSpec<Area> = {
  name: 'AREA',
  listed: () => true,
  orders: {
    name: { pattern: 'byName', index: 'gsi1', key: text('name') },
    color: { pattern: 'byColor', index: 'gsi2', key: text('color') },
    created_at: byCreation(),
    updated_at: byChange(),
    id: byId(),
  },
  basePartition: collectionOf('AREA'),
};
