/**
 * The admin control plane's rules (`/admin-v1`): create a workspace with its owner, read and
 * list workspaces, move them between ACTIVE, INACTIVE and BILLING_LOCKED, and give a
 * workspace an API client. The platform operator acts here, not a member of the workspace, so
 * the events these writes put in the workspace's outbox name the actor SYSTEM.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import type { z } from 'zod';
import type { AdminContext } from '../../auth/admin-authenticate.ts';
import { evictAuthCache } from '../../auth/authenticate.ts';
import { defaultRealm } from '../../auth/realm-name.ts';
import { DataError } from '../../data/data-error.ts';
import { getPrincipal, type PrincipalRecord, tableIdentityDirectory } from '../../data/directory.store.ts';
import { previousAttributes, systemEvent } from '../../events/domain-event.ts';
import { logger } from '../../observability/logger.ts';
import { defaultPageSize, pageOf } from '../../schema/list.ts';
import { sendSetPasswordInvitation } from '../users/set-password-invitation.ts';
import { updateVersioned } from '../versioned-write.ts';
import type {
  ApiClient,
  CreateApiClientSchema,
  CreateWorkspaceSchema,
  Workspace,
  WorkspaceListQuery,
} from './workspace-admin.schema.ts';
import { nextState, stateOf, type WorkspaceAction } from './workspace-admin.status.ts';
import {
  type AdminWorkspaceRecord,
  createClientWithServiceAccount,
  createWorkspaceWithOwner,
  getAdminWorkspace,
  ownersOf,
  pageOfWorkspaces,
  replaceWorkspace,
} from './workspace-admin.store.ts';
import { WorkspaceError } from './workspace-error.ts';
import { serviceAccountIdOf } from './workspace-provisioning.ts';

/** The Workspace representation, keys in schema order. */
export function toWorkspace(record: AdminWorkspaceRecord, ownerId?: string): Workspace {
  const state = stateOf(record);
  return {
    id: record.id,
    name: record.name,
    realm: record.realm,
    status: state.status,
    is_billing_locked: state.billing_locked,
    created_at: record.created_at,
    updated_at: record.updated_at,
    lock_version: record.lock_version,
    ...(ownerId ? { owner_id: ownerId } : {}),
  };
}

/** The tenant as events show it: the workspace without its owner (which has its own events). */
function tenantObject(record: AdminWorkspaceRecord): Record<string, unknown> {
  const { owner_id: _owner, ...tenant } = toWorkspace(record);
  return tenant;
}

export async function createWorkspace(
  ctx: AdminContext,
  input: z.output<typeof CreateWorkspaceSchema>,
  origin: string | undefined,
): Promise<Workspace> {
  const now = new Date().toISOString();
  const realm = input.realm ?? defaultRealm;
  const workspace: AdminWorkspaceRecord = {
    id: uuidv7(),
    name: input.name,
    realm,
    status: 'ACTIVE',
    billing_locked: false,
    created_at: now,
    updated_at: now,
    lock_version: 0,
  };
  const owner: PrincipalRecord = {
    id: uuidv7(),
    workspace_id: workspace.id,
    kind: 'user',
    status: 'ACTIVE',
    roles: ['owner'],
    email: input.owner.email,
    firstname: input.owner.firstname,
    lastname: input.owner.lastname,
    ...(input.owner.phone_number ? { phone_number: input.owner.phone_number } : {}),
    skill_ids: [],
    tag_ids: [],
    can_resend_set_password_email: true,
    created_at: now,
    updated_at: now,
    lock_version: 0,
  };
  // The user.created object carries the User representation's keys (SPEC.md "User").
  const ownerObject = {
    id: owner.id,
    email: owner.email,
    ...(owner.phone_number ? { phone_number: owner.phone_number } : {}),
    roles: owner.roles,
    skills: [],
    firstname: owner.firstname,
    lastname: owner.lastname,
    created_at: now,
    updated_at: now,
    status: owner.status,
    lock_version: 0,
    can_resend_set_password_email: true,
    tags: [],
  };
  try {
    await createWorkspaceWithOwner({
      workspace,
      owner,
      guard: { email: input.owner.email, workspace_id: workspace.id, user_id: owner.id },
      events: [
        systemEvent(
          workspace.id,
          'tenant.created',
          { type: 'tenant', id: workspace.id },
          tenantObject(workspace),
          undefined,
          ctx,
        ),
        systemEvent(
          workspace.id,
          'user.created',
          { type: 'user', id: owner.id },
          ownerObject,
          undefined,
          ctx,
        ),
      ],
    });
  } catch (error) {
    if (error instanceof DataError && error.code === 'already-exists') {
      throw new WorkspaceError('already-exists', {
        detail: `The e-mail address is already used in realm ${realm}.`,
        fields: [
          {
            type: 'field-invalid',
            pointer: '#/owner/email',
            detail: `belongs to another user of realm ${realm}; e-mail addresses are unique per realm`,
          },
        ],
      });
    }
    throw error;
  }
  await inviteOwner(workspace, owner, origin);
  return toWorkspace(workspace, owner.id);
}

/**
 * The workspace exists once its transaction committed; a mail failure must not turn that into
 * an error the caller would retry (and get 409). The owner keeps can_resend_set_password_email,
 * so the invitation can be sent again through the users API with a client of the workspace.
 */
async function inviteOwner(
  workspace: AdminWorkspaceRecord,
  owner: PrincipalRecord,
  origin: string | undefined,
) {
  try {
    await sendSetPasswordInvitation({
      workspaceId: workspace.id,
      realm: workspace.realm,
      user: { id: owner.id, email: owner.email as string, firstname: owner.firstname },
      origin,
      kind: 'invitation',
    });
  } catch (error) {
    logger.error('owner invitation failed', {
      workspaceId: workspace.id,
      userId: owner.id,
      error: error instanceof Error ? error.message : String(error),
    });
  }
}

async function workspaceOrThrow(workspaceId: string): Promise<AdminWorkspaceRecord> {
  const workspace = await getAdminWorkspace(workspaceId);
  if (!workspace) throw new WorkspaceError('not-found', { detail: 'No workspace with this id exists.' });
  return workspace;
}

export async function getWorkspace(workspaceId: string): Promise<Workspace> {
  const [workspace, [ownerId]] = await Promise.all([workspaceOrThrow(workspaceId), ownersOf([workspaceId])]);
  return toWorkspace(workspace, ownerId);
}

/** A page of the workspace list, then the page's owners (one BatchGetItem): a page costs its size. */
export async function listWorkspaces(query: z.output<typeof WorkspaceListQuery>) {
  const { items, total } = await pageOfWorkspaces({
    order: query.sort?.length ? query.sort : [{ field: 'created_at', direction: 'asc' }],
    page: query.page ?? 0,
    size: query.size ?? defaultPageSize,
  });
  const owners = await ownersOf(items.map((record) => record.id));
  return { items: items.map((record, i) => toWorkspace(record, owners[i])), page: pageOf(total, query) };
}

/**
 * activate / deactivate / billing-lock / billing-unlock (see workspace-admin.status.ts). A
 * change is a versioned write with a `tenant.updated` event; the authentication cache of this
 * container forgets the workspace at once (others within their cache lifetime). The operator
 * calls it through the admin plane, the billing module on the payment provider's word
 * (POST /api/v2/billing/recheck): either way the service makes the change, so the event's
 * actor is SYSTEM, with the ids of the request that caused it.
 */
export async function changeWorkspaceState(
  ctx: { requestId: string; correlationId: string },
  workspaceId: string,
  action: WorkspaceAction,
): Promise<Workspace> {
  const current = await workspaceOrThrow(workspaceId);
  const target = nextState(stateOf(current), action);
  const unchanged = (record: AdminWorkspaceRecord) => {
    const state = stateOf(record);
    return state.status === target.status && state.billing_locked === target.billing_locked;
  };
  if (unchanged(current)) return getWorkspace(workspaceId);

  await updateVersioned<AdminWorkspaceRecord>({
    key: `workspace:${workspaceId}`,
    load: () => getAdminWorkspace(workspaceId),
    expectedVersion: undefined,
    apply: (latest) => ({ ...latest, ...nextState(stateOf(latest), action) }),
    save: (next, latest) =>
      replaceWorkspace(
        next,
        latest,
        systemEvent(
          workspaceId,
          'tenant.updated',
          { type: 'tenant', id: workspaceId },
          tenantObject(next),
          previousAttributes(tenantObject(latest), tenantObject(next)),
          ctx,
        ),
      ),
  });
  evictAuthCache(workspaceId);
  return getWorkspace(workspaceId);
}

/**
 * An OIDC client of the workspace's realm acting as a new service account with `roles`.
 * The secret is random and returned only by this call.
 */
export async function createApiClient(
  workspaceId: string,
  input: z.output<typeof CreateApiClientSchema>,
): Promise<ApiClient> {
  const workspace = await workspaceOrThrow(workspaceId);
  const clientId = input.client_id ?? `api-${randomUUID()}`;
  const clientSecret = randomBytes(32).toString('base64url');
  const redirectUris = input.redirect_uris ?? [];
  const now = new Date().toISOString();
  const principalId = serviceAccountIdOf(workspace.id, clientId);
  try {
    await createClientWithServiceAccount({
      realm: workspace.realm,
      client: { clientId, clientSecret, workspaceId: workspace.id, principalId, redirectUris },
      serviceAccount: {
        id: principalId,
        workspace_id: workspace.id,
        kind: 'service_account',
        status: 'ACTIVE',
        roles: input.roles,
        client_id: clientId,
        created_at: now,
        updated_at: now,
        lock_version: 0,
      },
    });
  } catch (error) {
    if (error instanceof DataError && error.code === 'already-exists') {
      throw new WorkspaceError('already-exists', {
        detail: `A client with this client_id already exists in realm ${workspace.realm}.`,
        fields: [
          {
            type: 'field-invalid',
            pointer: '#/client_id',
            detail: `is already taken in realm ${workspace.realm}; client ids are unique per realm`,
          },
        ],
      });
    }
    throw error;
  }
  return {
    client_id: clientId,
    client_secret: clientSecret,
    realm: workspace.realm,
    roles: input.roles,
    redirect_uris: redirectUris,
  };
}

/** A client of the workspace, without its secret; another workspace's client is not found. */
export async function getApiClient(workspaceId: string, clientId: string): Promise<ApiClient> {
  const workspace = await workspaceOrThrow(workspaceId);
  const client = await tableIdentityDirectory.findClient(workspace.realm, clientId);
  if (!client || client.workspaceId !== workspace.id)
    throw new WorkspaceError('not-found', { detail: 'No client with this id in this workspace.' });
  const serviceAccount = await getPrincipal(workspace.id, client.principalId);
  return {
    client_id: client.clientId,
    realm: workspace.realm,
    roles: serviceAccount?.roles ?? [],
    redirect_uris: client.redirectUris,
  };
}
