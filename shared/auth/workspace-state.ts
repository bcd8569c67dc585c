/**
 * Whether a workspace may be worked in: the one rule every workspace-scoped operation applies,
 * whoever the caller is (a bearer token in authenticate.ts, a device's intake secret in
 * device-intake.service.ts):
 *
 * - a deactivated workspace (INACTIVE) is 403 `tenant-disabled`, data.reason TENANT_INACTIVE;
 * - a billing-locked one (BILLING_LOCKED) is 402 `tenant-billing-locked`, data.reason
 *   BILLING_LOCKED; the billing operations stay open (their routes set allowInactiveTenant).
 *
 * Workspace records are cached per container for `config().authCacheSeconds` (default 5 s), so a
 * warm request costs no lookup of its own; a deactivation takes effect within that lifetime
 * (immediately in the local stack, whose admin writes evict the entry). Apart from
 * authenticate.ts so that the device intake function bundles no token verifier.
 */
import { config } from '../config.ts';
import { getWorkspace, type WorkspaceRecord } from '../data/directory.store.ts';
import { ProblemError } from '../http/problem.ts';
import { TtlCache } from './ttl-cache.ts';

const workspaces = new TtlCache<WorkspaceRecord | undefined>(() => config().authCacheSeconds * 1000);

/** The workspace record, from this container's cache when it is fresh enough. */
export function cachedWorkspace(workspaceId: string): Promise<WorkspaceRecord | undefined> {
  return workspaces.get(workspaceId, () => getWorkspace(workspaceId));
}

/** Drop the cached record after changing the workspace in this container. */
export function evictCachedWorkspace(workspaceId: string): void {
  workspaces.delete(workspaceId);
}

/** Throws the 403 or 402 of a workspace that is deactivated or locked for billing reasons. */
export function assertWorkspaceOpen(workspace: Pick<WorkspaceRecord, 'status'>): void {
  if (workspace.status === 'INACTIVE') {
    throw new ProblemError('tenant-disabled', {
      detail: 'This workspace is deactivated.',
      data: { reason: 'TENANT_INACTIVE' },
    });
  }
  if (workspace.status === 'BILLING_LOCKED') {
    throw new ProblemError('tenant-billing-locked', {
      detail: 'This workspace is locked for billing reasons; the billing operations stay available.',
      data: { reason: 'BILLING_LOCKED' },
    });
  }
}
