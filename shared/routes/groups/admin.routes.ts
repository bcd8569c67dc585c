/**
 * Routes of the `admin` operation group (one Lambda): the platform operator's control plane
 * under `/admin-v1`, outside the versioned workspace API. Callers hold a client-credentials
 * token of the reserved realm `fsm-admin`; there is no grant model, so no route here answers a
 * grant-based 403 (SPEC.md Authentication rule 11).
 */
import {
  ApiClientIdParams,
  ApiClientSchema,
  CreateApiClientSchema,
  CreateWorkspaceSchema,
  WorkspaceIdParams,
  WorkspaceListQuery,
  WorkspaceListSchema,
  WorkspaceSchema,
} from '../../domain/workspaces/workspace-admin.schema.ts';
import type { RouteSpec } from '../../http/route-spec.ts';

const common = { group: 'admin', tags: ['Admin'], auth: 'admin' } as const;
const workspace = '/admin-v1/workspaces/{workspace_id}';

function stateAction<const A extends string>(action: A, summary: string, description: string) {
  return {
    ...common,
    operationId: `admin.workspaces.${action}` as `admin.workspaces.${A}`,
    method: 'POST',
    path: `${workspace}/${action}` as `${typeof workspace}/${A}`,
    summary,
    params: WorkspaceIdParams,
    success: { status: 200, description, schema: WorkspaceSchema },
  } as const;
}

export const adminRoutes = [
  {
    ...common,
    operationId: 'admin.workspaces.list',
    method: 'GET',
    path: '/admin-v1/workspaces',
    summary: 'List workspaces',
    query: WorkspaceListQuery,
    success: { status: 200, description: 'A page of workspaces.', schema: WorkspaceListSchema },
  },
  {
    ...common,
    operationId: 'admin.workspaces.create',
    method: 'POST',
    path: '/admin-v1/workspaces',
    summary: 'Create a workspace with its owner (who gets a set-password e-mail)',
    body: CreateWorkspaceSchema,
    success: {
      status: 201,
      description:
        'The created workspace, ACTIVE; Location names it. The owner exists with role owner and has ' +
        'been sent an invitation with a set-password link. 409 resource-conflict (pointer #/owner/email) ' +
        'when the e-mail is taken in the realm.',
      schema: WorkspaceSchema,
    },
    errors: [409],
  },
  {
    ...common,
    operationId: 'admin.workspaces.get',
    method: 'GET',
    path: workspace,
    summary: 'Get a workspace',
    params: WorkspaceIdParams,
    success: { status: 200, description: 'The workspace.', schema: WorkspaceSchema },
  },
  stateAction(
    'activate',
    'Activate a workspace',
    'The workspace, no longer INACTIVE: ACTIVE, or BILLING_LOCKED while its billing lock holds. ' +
      'Already active: 200 unchanged.',
  ),
  stateAction(
    'deactivate',
    'Deactivate a workspace',
    'The workspace, INACTIVE: its routes answer 403 tenant-disabled (billing routes stay available). ' +
      'A billing lock is kept underneath. Already inactive: 200 unchanged.',
  ),
  stateAction(
    'billing-lock',
    'Lock a workspace for billing reasons',
    'The workspace, BILLING_LOCKED (INACTIVE stays INACTIVE, with the lock recorded): its routes ' +
      'answer 402 tenant-billing-locked (billing routes stay available). Already locked: 200 unchanged.',
  ),
  stateAction(
    'billing-unlock',
    'Lift the billing lock of a workspace',
    'The workspace without billing lock: ACTIVE, or still INACTIVE when deactivated. Not locked: ' +
      '200 unchanged.',
  ),
  {
    ...common,
    operationId: 'admin.clients.create',
    method: 'POST',
    path: `${workspace}/clients`,
    summary: 'Create an API client (client-credentials) for a workspace',
    params: WorkspaceIdParams,
    body: CreateApiClientSchema,
    success: {
      status: 201,
      description:
        'The client with its secret (shown only here); Location names it. Get tokens at ' +
        '{auth_url}/realms/{realm}/protocol/openid-connect/token with grant_type=client_credentials. ' +
        '409 resource-conflict (pointer #/client_id) when the client_id is taken in the realm.',
      schema: ApiClientSchema,
    },
    errors: [409],
  },
  {
    ...common,
    operationId: 'admin.clients.get',
    method: 'GET',
    path: `${workspace}/clients/{client_id}`,
    summary: 'Get an API client of a workspace (without its secret)',
    params: ApiClientIdParams,
    success: { status: 200, description: 'The client, without secret.', schema: ApiClientSchema },
  },
] as const satisfies readonly RouteSpec[];
