/** How maintenance plans are listed: active and paused apart, by name, creation and change (README.md, "Lists", MAINTENANCE_PLAN). */
import type { ListSpec } from '../../data/list-index.ts';
import { byChange, byCreation, collectionOf, text } from '../../data/list-patterns.ts';
import type { MaintenancePlan } from './maintenance-plan.schema.ts';

/** Active and paused plans are apart, so the `status` filter costs nothing. */
export const maintenancePlanSegments = ['ACTIVE', 'PAUSED'] as const;

export const maintenancePlanList: ListSpec<MaintenancePlan> = {
  name: 'MAINTENANCE_PLAN',
  listed: () => true,
  segment: { values: maintenancePlanSegments, of: (record) => record.status },
  orders: {
    name: { pattern: 'byName', index: 'gsi1', key: text('name') },
    created_at: byCreation(),
    updated_at: byChange(),
  },
  basePartition: collectionOf('MAINTENANCE_PLAN'),
};
