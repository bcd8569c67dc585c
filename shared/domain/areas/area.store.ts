/** Storage of areas: the generic resource store over the AREA collection and its list declaration. */
import { resourceStore } from '../../data/resource-store.ts';
import { areaList } from './area.list.ts';
import type { Area } from './area.schema.ts';

export const areaStore = resourceStore<Area>('area', 'AREA', areaList);
