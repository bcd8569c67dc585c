/**
 * The admin control plane's wire shapes (`/admin-v1`): a workspace as the platform operator
 * sees it, creating one with its owner, and creating an API client for it.
 * Published schema names: Workspace, CreateWorkspace, WorkspaceList, ApiClient, CreateApiClient.
 */
import * as z from 'zod';
import { roleNames } from '../../auth/grants.ts';
import { adminRealm, defaultRealm, realmNamePattern } from '../../auth/realm-name.ts';
import { emailAddress, storedVersion, text } from '../../schema/fields.ts';
import { pagedListSchema } from '../../schema/list.ts';
import { phoneNumber } from '../../schema/phone-number.ts';
import { paginationQuery, sortParam } from '../../schema/query-params.ts';

export const workspaceStatuses = ['ACTIVE', 'INACTIVE', 'BILLING_LOCKED'] as const;

export const WorkspaceSchema = z
  .object({
    id: z.uuid().meta({ description: 'Identifier of the workspace: the tenant_id of its tokens.' }),
    name: z.string().meta({ description: 'Display name; need not be unique.' }),
    realm: z.string().meta({ description: 'The identity-provider realm its users sign in to.' }),
    status: z.enum(workspaceStatuses).meta({
      description:
        'INACTIVE when deactivated (workspace routes answer 403 tenant-disabled), else BILLING_LOCKED ' +
        'when billing-locked (402 tenant-billing-locked), else ACTIVE.',
    }),
    is_billing_locked: z.boolean().meta({
      description:
        'The billing lock, kept apart from activation: a locked workspace that is deactivated and ' +
        'activated again is still BILLING_LOCKED until billing-unlock.',
    }),
    created_at: z.iso.datetime().meta({ description: 'When the workspace was created.' }),
    updated_at: z.iso.datetime().meta({ description: 'When the workspace record last changed.' }),
    lock_version: storedVersion().meta({
      description: 'Starts at 0 and increments with every change of the workspace.',
    }),
    owner_id: z
      .uuid()
      .optional()
      .meta({ description: 'The user holding the owner role now (ownership can be transferred).' }),
  })
  .meta({ id: 'Workspace' });

export type Workspace = z.infer<typeof WorkspaceSchema>;

// zod's stricter pattern, as the admin plane has always checked owner addresses with it.
const email = emailAddress({ pattern: z.regexes.email });

const realm = text({ max: 63 }).check((ctx) => {
  if (!ctx.value.trim()) return;
  if (!realmNamePattern.test(ctx.value)) {
    ctx.issues.push({
      code: 'custom',
      input: ctx.value,
      message: 'must be 1 to 63 lower-case letters, digits and hyphens, starting with a letter or digit',
    });
  } else if (ctx.value === adminRealm) {
    ctx.issues.push({ code: 'custom', input: ctx.value, message: `${adminRealm} is reserved` });
  }
});

export const CreateWorkspaceSchema = z
  .object({
    name: text({ max: 255 }).meta({ description: 'Display name; need not be unique.' }),
    realm: realm.optional().meta({
      description:
        `Default ${defaultRealm}. A new name creates a dedicated realm. ${adminRealm} is reserved. ` +
        'E-mail addresses are unique per realm.',
    }),
    owner: z
      .object({
        email: email.meta({ description: 'Stored lower-cased; must be free in the realm (409 otherwise).' }),
        firstname: text({ max: 255 }).meta({ description: 'First name of the owner.' }),
        lastname: text({ max: 255 }).meta({ description: 'Last name of the owner.' }),
        phone_number: phoneNumber().optional().meta({ description: 'With + country code; stored as E.164.' }),
      })
      .meta({
        description:
          'The first user: role owner, ACTIVE, no password yet; an invitation e-mail with a set-password ' +
          'link goes to this address (its continue link uses the request Origin header, when sent).',
      }),
  })
  .meta({ id: 'CreateWorkspace' });

export const workspaceSortFields = ['created_at', 'id'] as const;

export const WorkspaceListQuery = z.object({
  ...paginationQuery,
  sort: sortParam(workspaceSortFields).meta({
    description:
      'Repeated `sort=<field>:<asc|desc>`. Fields: created_at, id. Default created_at ascending ' +
      '(ties by id).',
  }),
});

export const WorkspaceIdParams = z.object({ workspace_id: z.uuid() });

export const WorkspaceListSchema = pagedListSchema(WorkspaceSchema, 'WorkspaceList');

const clientId = text({ max: 128 }).check((ctx) => {
  if (ctx.value.trim() && !/^[A-Za-z0-9][A-Za-z0-9._~-]*$/.test(ctx.value)) {
    ctx.issues.push({
      code: 'custom',
      input: ctx.value,
      message: 'may hold only letters, digits and . _ ~ - (starting with a letter or digit)',
    });
  }
});

const redirectUri = z
  .url({ protocol: /^https?$/ })
  .max(2048)
  .check((ctx) => {
    if (ctx.value.includes('#')) {
      ctx.issues.push({ code: 'custom', input: ctx.value, message: 'must not have a fragment' });
    }
  });

const clientRole = z.enum(roleNames);

export const CreateApiClientSchema = z
  .object({
    client_id: clientId.optional().meta({
      description: 'Unique in the workspace realm (409 otherwise). Generated (`api-<uuid>`) when omitted.',
    }),
    roles: z
      .array(clientRole)
      .min(1)
      .max(roleNames.length)
      .check((ctx) => {
        ctx.value.forEach((role, index) => {
          if (role === 'owner') {
            ctx.issues.push({
              code: 'custom',
              input: role,
              path: [index],
              message: 'the owner role belongs to one user; give an API client admin or less',
            });
          } else if (ctx.value.indexOf(role) !== index) {
            ctx.issues.push({ code: 'custom', input: role, path: [index], message: 'is listed twice' });
          }
        });
      })
      .meta({ description: 'Role names of the client service account (not owner).' }),
    redirect_uris: z
      .array(redirectUri)
      .max(20)
      .optional()
      .meta({
        description:
          'Absolute http(s) URLs without fragment. With any, the client may also run the authorization-code ' +
          'flow (with PKCE) for the users of the workspace; without, only client credentials.',
      }),
  })
  .meta({ id: 'CreateApiClient' });

export const ApiClientIdParams = z.object({ workspace_id: z.uuid(), client_id: z.string().max(128) });

export const ApiClientSchema = z
  .object({
    client_id: z.string().meta({ description: 'The OAuth client_id; unique in the realm.' }),
    client_secret: z.string().optional().meta({
      description: 'Only in the response that creates the client; store it then, it cannot be read again.',
    }),
    realm: z
      .string()
      .meta({ description: 'Token endpoint: {auth_url}/realms/{realm}/protocol/openid-connect/token.' }),
    roles: z.array(z.string()).meta({ description: 'Role names of the client service account.' }),
    redirect_uris: z
      .array(z.string())
      .meta({ description: 'Where the authorization-code flow may return; [] for client credentials only.' }),
  })
  .meta({ id: 'ApiClient' });

export type ApiClient = z.infer<typeof ApiClientSchema>;
