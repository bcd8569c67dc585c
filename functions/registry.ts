/**
 * Every operation group's handler module, by group. Typed over the route table's groups, so a
 * group without a handler does not compile. The local server and the Fargate container load
 * handlers through this; CDK points one Lambda at each `functions/<group>/handler.ts`.
 */
import type { ApiHandler } from '../shared/http/api-gateway.ts';
import type { OperationGroup } from '../shared/routes/route-table.ts';

export const groupHandlers: Record<OperationGroup, () => Promise<{ handler: ApiHandler }>> = {
  platform: () => import('./platform/handler.ts'),
  areas: () => import('./areas/handler.ts'),
  tags: () => import('./tags/handler.ts'),
  users: () => import('./users/handler.ts'),
  skills: () => import('./skills/handler.ts'),
  'audit-logs': () => import('./audit-logs/handler.ts'),
  admin: () => import('./admin/handler.ts'),
  webhooks: () => import('./webhooks/handler.ts'),
  vehicles: () => import('./vehicles/handler.ts'),
  tours: () => import('./tours/handler.ts'),
  shifts: () => import('./shifts/handler.ts'),
  cases: () => import('./cases/handler.ts'),
  'maintenance-plans': () => import('./maintenance-plans/handler.ts'),
  scheduling: () => import('./scheduling/handler.ts'),
  comments: () => import('./comments/handler.ts'),
  sync: () => import('./sync/handler.ts'),
  devices: () => import('./devices/handler.ts'),
  'device-intake': () => import('./device-intake/handler.ts'),
  billing: () => import('./billing/handler.ts'),
  settings: () => import('./settings/handler.ts'),
  'custom-objects': () => import('./custom-objects/handler.ts'),
  graphql: () => import('./graphql/handler.ts'),
  tenant: () => import('./tenant/handler.ts'),
};
