/**
 * THE route table: the single source of truth for the REST surface. CDK builds the API
 * Gateway routes and one Lambda per `group` from it, the local server routes with it, and the
 * OpenAPI document is generated from it. Plain data and zod schemas only: importing it never
 * pulls in handler code. Each group's routes live in groups/<group>.routes.ts, so a group's
 * Lambda bundles only its own schemas; its implementation must cover exactly its operation ids.
 */
import { adminRoutes } from './groups/admin.routes.ts';
import { areaRoutes } from './groups/areas.routes.ts';
import { auditLogRoutes } from './groups/audit-logs.routes.ts';
import { billingRoutes } from './groups/billing.routes.ts';
import { caseRoutes } from './groups/cases.routes.ts';
import { commentRoutes } from './groups/comments.routes.ts';
import { customObjectInstanceRoutes } from './groups/custom-object-instances.routes.ts';
import { customObjectRelationRoutes } from './groups/custom-object-relations.routes.ts';
import { customObjectRoutes } from './groups/custom-objects.routes.ts';
import { deviceIntakeRoutes } from './groups/device-intake.routes.ts';
import { deviceRoutes } from './groups/devices.routes.ts';
import { graphqlRoutes } from './groups/graphql.routes.ts';
import { maintenancePlanRoutes } from './groups/maintenance-plans.routes.ts';
import { platformRoutes } from './groups/platform.routes.ts';
import { schedulingRoutes } from './groups/scheduling.routes.ts';
import { settingsRoutes } from './groups/settings.routes.ts';
import { shiftRoutes } from './groups/shifts.routes.ts';
import { skillRoutes } from './groups/skills.routes.ts';
import { syncRoutes } from './groups/sync.routes.ts';
import { tagRoutes } from './groups/tags.routes.ts';
import { tenantRoutes } from './groups/tenant.routes.ts';
import { tenantUploadRoutes } from './groups/tenant-uploads.routes.ts';
import { tourRoutes } from './groups/tours.routes.ts';
import { userRoutes } from './groups/users.routes.ts';
import { vehicleRoutes } from './groups/vehicles.routes.ts';
import { webhookRoutes } from './groups/webhooks.routes.ts';

export const routes = [
  ...platformRoutes,
  ...areaRoutes,
  ...tagRoutes,
  ...userRoutes,
  ...skillRoutes,
  ...auditLogRoutes,
  ...vehicleRoutes,
  ...tourRoutes,
  ...shiftRoutes,
  ...caseRoutes,
  ...maintenancePlanRoutes,
  ...schedulingRoutes,
  ...commentRoutes,
  ...syncRoutes,
  ...deviceRoutes,
  ...deviceIntakeRoutes,
  ...settingsRoutes,
  ...customObjectRoutes,
  ...customObjectInstanceRoutes,
  ...customObjectRelationRoutes,
  ...graphqlRoutes,
  ...tenantRoutes,
  ...tenantUploadRoutes,
  ...webhookRoutes,
  ...billingRoutes,
  ...adminRoutes,
] as const;

export type Route = (typeof routes)[number];
export type OperationId = Route['operationId'];
export type OperationGroup = Route['group'];
export type RoutesOf<G extends OperationGroup> = Extract<Route, { group: G }>;

export const operationGroups = [...new Set(routes.map((route) => route.group))] as OperationGroup[];
