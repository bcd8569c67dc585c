/**
 * The codes of each domain module's error, in one place, so each transport's mapper can be
 * required to cover every module and every code (a mapped type over this interface).
 */
import type { AreaErrorCode } from './areas/area-error.ts';
import type { AuditLogErrorCode } from './audit-logs/audit-log-error.ts';
import type { BillingErrorCode } from './billing/billing-error.ts';
import type { CaseErrorCode } from './cases/case-error.ts';
import type { CommentErrorCode } from './comments/comment-error.ts';
import type { CommonDomainErrorCode } from './common-error.ts';
import type { CustomObjectErrorCode } from './custom-objects/custom-object-error.ts';
import type { DeviceErrorCode } from './devices/device-error.ts';
import type { MaintenancePlanErrorCode } from './maintenance-plans/maintenance-plan-error.ts';
import type { OptimizationRunErrorCode } from './optimization-runs/optimization-run-error.ts';
import type { SchedulingErrorCode } from './scheduling/scheduling-error.ts';
import type { SettingsErrorCode } from './settings/settings-error.ts';
import type { ShiftErrorCode } from './shifts/shift-error.ts';
import type { SkillErrorCode } from './skills/skill-error.ts';
import type { TagErrorCode } from './tags/tag-error.ts';
import type { TenantErrorCode } from './tenant/tenant-error.ts';
import type { TourErrorCode } from './tours/tour-error.ts';
import type { UserErrorCode } from './users/user-error.ts';
import type { VehicleErrorCode } from './vehicles/vehicle-error.ts';
import type { WebhookErrorCode } from './webhooks/webhook-error.ts';
import type { WorkspaceErrorCode } from './workspaces/workspace-error.ts';

export interface DomainErrorCodes {
  common: CommonDomainErrorCode;
  areas: AreaErrorCode;
  'audit-logs': AuditLogErrorCode;
  billing: BillingErrorCode;
  cases: CaseErrorCode;
  comments: CommentErrorCode;
  'custom-objects': CustomObjectErrorCode;
  devices: DeviceErrorCode;
  'maintenance-plans': MaintenancePlanErrorCode;
  'optimization-runs': OptimizationRunErrorCode;
  scheduling: SchedulingErrorCode;
  settings: SettingsErrorCode;
  shifts: ShiftErrorCode;
  skills: SkillErrorCode;
  tags: TagErrorCode;
  tenant: TenantErrorCode;
  tours: TourErrorCode;
  users: UserErrorCode;
  vehicles: VehicleErrorCode;
  webhooks: WebhookErrorCode;
  workspaces: WorkspaceErrorCode;
}
