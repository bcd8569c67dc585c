/** Storage of tours. */
import { resourceStore } from '../../data/resource-store.ts';
import { tourList } from './tour.list.ts';
import type { Tour } from './tour.schema.ts';

export const tourStore = resourceStore<Tour>('tour', 'TOUR', tourList);
