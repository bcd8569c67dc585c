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
import { onePage } from '../crud-routes.ts';

const common = { group: 'admin', tags: ['Admin'], auth: 'admin' } as const;
const workspace = '/admin-v1/workspaces/{workspace_id}';

/** The workspace of the examples, as created. */
const acme = {
  id: '019bb18a-75c0-77ec-998b-cbba2c8c91af',
  name: 'Acme Field Service',
  realm: 'shared',
  status: 'ACTIVE',
  is_billing_locked: false,
  created_at: '2026-01-12T09:30:00.000Z',
  updated_at: '2026-01-12T09:30:00.000Z',
  lock_version: 0,
  owner_id: '019bb18a-75c0-7a41-8c3e-5f0d2b7e19a4',
} as const;

/** The example workspace after a state change at `updated_at`. */
function acmeAfter(change: {
  status: 'ACTIVE' | 'INACTIVE' | 'BILLING_LOCKED';
  is_billing_locked: boolean;
  lock_version: number;
  updated_at: string;
}) {
  return { ...acme, ...change };
}

const stateRules =
  'Deactivation and the billing lock are two separate facts: `status` is INACTIVE while the workspace ' +
  'is deactivated, else BILLING_LOCKED while it is billing-locked, else ACTIVE; `is_billing_locked` ' +
  'shows a lock underneath a deactivation. No body. An action that changes nothing answers 200 with the ' +
  'workspace as it is (same lock_version, no event), so repeating it is safe. A change increments ' +
  'lock_version and records a tenant.updated event (actor SYSTEM) in the audit log of the workspace. ' +
  'Requests of the workspace see the new state within the authentication cache lifetime ' +
  '(`FSM_AUTH_CACHE_SECONDS`, 5 seconds by default).';

function stateAction<const A extends string>(
  action: A,
  summary: string,
  effect: string,
  response: ReturnType<typeof acmeAfter>,
) {
  return {
    ...common,
    operationId: `admin.workspaces.${action}` as `admin.workspaces.${A}`,
    method: 'POST',
    path: `${workspace}/${action}` as `${typeof workspace}/${A}`,
    summary,
    description: `${effect}\n\n${stateRules}`,
    examples: { response },
    params: WorkspaceIdParams,
    success: { status: 200, description: 'The workspace in its resulting state.', schema: WorkspaceSchema },
  } as const;
}

export const adminRoutes = [
  {
    ...common,
    operationId: 'admin.workspaces.list',
    method: 'GET',
    path: '/admin-v1/workspaces',
    summary: 'List workspaces',
    description:
      'Every workspace of the platform, whatever its status or realm, each with its current owner. ' +
      'Default order: `created_at` ascending, ties by `id`.',
    examples: {
      query: 'sort=created_at:desc&size=50',
      response: onePage(acme, 50),
    },
    query: WorkspaceListQuery,
    success: { status: 200, description: 'A page of workspaces.', schema: WorkspaceListSchema },
  },
  {
    ...common,
    operationId: 'admin.workspaces.create',
    method: 'POST',
    path: '/admin-v1/workspaces',
    summary: 'Create a workspace with its owner (who gets a set-password e-mail)',
    description:
      'Creates an ACTIVE workspace together with its first user, in one step. The owner gets the role ' +
      'owner, status ACTIVE and no password yet; an invitation e-mail with a set-password link goes to ' +
      '`owner.email` (when the request carries an http(s) `Origin` header, the set-password page offers to ' +
      'continue there). A failed e-mail does not fail the call: the workspace exists, and the invitation ' +
      'can be sent again through the workspace API (`POST /api/v2/users/{user_id}/resend-set-password-email`).\n\n' +
      '`realm` defaults to `shared`; a realm name no workspace used before creates a dedicated realm, ' +
      'whose sign-in endpoints work at once. `fsm-admin` is reserved. The owner e-mail is stored ' +
      'lower-cased and must be free in the realm: a taken one is 409 resource-conflict with an `errors[]` ' +
      'entry at `#/owner/email` (the same address may exist in another realm). Names need not be unique.\n\n' +
      'The workspace starts at lock_version 0; tenant.created and user.created events (actor SYSTEM) ' +
      'open its audit log. API access for the workspace comes from `POST /admin-v1/workspaces/{workspace_id}/clients`.',
    examples: {
      request: {
        name: 'Acme Field Service',
        owner: {
          email: 'olga.owner@acme.example',
          firstname: 'Olga',
          lastname: 'Owner',
          phone_number: '+49 30 12345678',
        },
      },
      response: acme,
    },
    body: CreateWorkspaceSchema,
    success: {
      status: 201,
      description: 'The created workspace, with the id of its owner; Location names it.',
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
    description:
      'The workspace with its status, billing lock and current owner (`owner_id` follows ownership ' +
      'transfers made in the workspace). An unknown or malformed id is 404 not-found.',
    examples: { response: acme },
    params: WorkspaceIdParams,
    success: { status: 200, description: 'The workspace.', schema: WorkspaceSchema },
  },
  stateAction(
    'activate',
    'Activate a workspace',
    'Lifts a deactivation: the workspace becomes ACTIVE, or BILLING_LOCKED when a billing lock is still ' +
      'in place. A workspace that is not deactivated is answered unchanged.',
    acmeAfter({
      status: 'ACTIVE',
      is_billing_locked: false,
      lock_version: 2,
      updated_at: '2026-03-02T08:15:00.000Z',
    }),
  ),
  stateAction(
    'deactivate',
    'Deactivate a workspace',
    'The workspace becomes INACTIVE: its API requests answer 403 tenant-disabled (data.reason ' +
      'TENANT_INACTIVE) until it is activated again. A billing lock is kept underneath and returns with ' +
      'activation. An INACTIVE workspace is answered unchanged.',
    acmeAfter({
      status: 'INACTIVE',
      is_billing_locked: false,
      lock_version: 1,
      updated_at: '2026-02-03T10:04:11.000Z',
    }),
  ),
  stateAction(
    'billing-lock',
    'Lock a workspace for billing reasons',
    'Locks the workspace for billing reasons: an active workspace becomes BILLING_LOCKED and its API ' +
      'requests answer 402 tenant-billing-locked; an INACTIVE one stays INACTIVE with the lock recorded ' +
      '(`is_billing_locked` true). A workspace already locked is answered unchanged.',
    acmeAfter({
      status: 'BILLING_LOCKED',
      is_billing_locked: true,
      lock_version: 3,
      updated_at: '2026-04-14T07:45:12.000Z',
    }),
  ),
  stateAction(
    'billing-unlock',
    'Lift the billing lock of a workspace',
    'Lifts the billing lock: a BILLING_LOCKED workspace becomes ACTIVE; an INACTIVE one stays INACTIVE ' +
      'and forgets the lock. A workspace without a lock is answered unchanged.',
    acmeAfter({
      status: 'ACTIVE',
      is_billing_locked: false,
      lock_version: 4,
      updated_at: '2026-05-20T13:10:05.000Z',
    }),
  ),
  {
    ...common,
    operationId: 'admin.clients.create',
    method: 'POST',
    path: `${workspace}/clients`,
    summary: 'Create an API client (client-credentials) for a workspace',
    description:
      'Creates a confidential OpenID Connect client in the realm of the workspace, acting as a new ' +
      'service account of the workspace with the given `roles` (any but owner). Service accounts never ' +
      'appear in user lists. Get tokens with `grant_type=client_credentials` at ' +
      '`{auth_url}/realms/{realm}/protocol/openid-connect/token`; with `redirect_uris`, the client may ' +
      'also run the authorization-code flow (with PKCE) for the users of the workspace.\n\n' +
      '`client_secret` is generated and returned only in this answer: store it now, it cannot be read ' +
      'again. `client_id` defaults to `api-` followed by a random UUID; a `client_id` taken in the realm ' +
      '(by any workspace) is 409 resource-conflict with an `errors[]` entry at `#/client_id`. An unknown ' +
      'workspace is 404 not-found.',
    examples: {
      request: { client_id: 'acme-erp-sync', roles: ['dispatcher'] },
      response: {
        client_id: 'acme-erp-sync',
        client_secret: '8tKQMBZNAnoPJceUy3ALPgQjK6mYZQ6Rm9v8y0PObD4',
        realm: 'shared',
        roles: ['dispatcher'],
        redirect_uris: [],
      },
    },
    params: WorkspaceIdParams,
    body: CreateApiClientSchema,
    success: {
      status: 201,
      description: 'The client with its secret (shown only here); Location names it.',
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
    description:
      'The client with its realm, the roles of its service account and its redirect URIs; the secret is ' +
      'never shown again. An unknown workspace, or a client that does not exist or belongs to another ' +
      'workspace, is 404 not-found.',
    examples: {
      response: { client_id: 'acme-erp-sync', realm: 'shared', roles: ['dispatcher'], redirect_uris: [] },
    },
    params: ApiClientIdParams,
    success: { status: 200, description: 'The client, without secret.', schema: ApiClientSchema },
  },
] as const satisfies readonly RouteSpec[];
