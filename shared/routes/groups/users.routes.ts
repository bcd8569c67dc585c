/**
 * Routes of the `users` operation group (one Lambda): users, their skill and tag sets and
 * lifecycle actions, the role catalog, and the caller's own account (/me). Part of the route
 * table.
 */
import { RoleListSchema } from '../../domain/roles/role.schema.ts';
import {
  ChangePasswordSchema,
  CreateUserSchema,
  CurrentUserSchema,
  ReplaceUserSkillsSchema,
  ReplaceUserTagsSchema,
  SkillOfferingListSchema,
  TagReferenceListSchema,
  UpdateUserSchema,
  UserIdParams,
  UserListQuery,
  UserListSchema,
  UserSchema,
} from '../../domain/users/user.schema.ts';
import type { RouteSpec } from '../../http/route-spec.ts';

const common = { group: 'users', tags: ['Users'], auth: 'bearer' } as const;
const read = { ...common, grants: ['users:read'] } as const;
const write = { ...common, grants: ['users:update'] } as const;
const user = '/api/v2/users/{user_id}';

/** A lifecycle action: POST on the user, no body, the resulting user. */
function action<const A extends string>(name: A, summary: string, description: string) {
  return {
    ...write,
    operationId: `users.${name}` as `users.${A}`,
    method: 'POST',
    path: `${user}/${name}` as `${typeof user}/${A}`,
    summary,
    params: UserIdParams,
    success: { status: 200, description, schema: UserSchema },
  } as const;
}

export const userRoutes = [
  {
    ...read,
    operationId: 'users.list',
    method: 'GET',
    path: '/api/v2/users',
    summary: 'List users',
    query: UserListQuery,
    success: {
      status: 200,
      description:
        'A page of users (never service accounts). Filters combine with AND, the values of an array filter with OR. Default status ACTIVE; default order last_name then first_name ascending.',
      schema: UserListSchema,
    },
  },
  {
    ...write,
    operationId: 'users.create',
    method: 'POST',
    path: '/api/v2/users',
    summary: 'Create (invite) a user',
    body: CreateUserSchema,
    errors: [409],
    success: {
      status: 201,
      description:
        'The created user (ACTIVE, can_resend_set_password_email true); Location names it. An invitation e-mail with a set-password link is sent; the link continues to the Origin header of the request when it is an http(s) origin. 409 resource-conflict (errors[].pointer #/email) when the e-mail is taken in the identity realm.',
      schema: UserSchema,
    },
  },
  {
    ...read,
    operationId: 'users.get',
    method: 'GET',
    path: user,
    summary: 'Get a user',
    params: UserIdParams,
    success: { status: 200, description: 'The user.', schema: UserSchema },
  },
  {
    ...write,
    operationId: 'users.update',
    method: 'PATCH',
    path: user,
    summary: 'Update a user (JSON Merge Patch)',
    params: UserIdParams,
    body: UpdateUserSchema,
    mergePatch: true,
    success: { status: 200, description: 'The updated user.', schema: UserSchema },
  },
  action(
    'deactivate',
    'Deactivate a user',
    'The user, now INACTIVE: no sign-in, existing tokens are refused. Already INACTIVE: answered unchanged. The workspace owner cannot be deactivated (403 access-denied, data.reason resource_locked).',
  ),
  action(
    'activate',
    'Activate a user',
    'The user, now ACTIVE, with its failed sign-ins forgotten. Already ACTIVE: answered unchanged.',
  ),
  action(
    'unblock',
    'Unblock a user',
    'The user: a BLOCKED user becomes ACTIVE and its failed sign-ins are forgotten; any other user is answered unchanged.',
  ),
  {
    ...write,
    operationId: 'users.resend-set-password-email',
    method: 'POST',
    path: `${user}/resend-set-password-email`,
    summary: 'Send a new set-password e-mail',
    params: UserIdParams,
    errors: [422],
    success: {
      status: 202,
      description:
        'Accepted, no body: a new set-password link is on its way (older links stop working). 422 validation-failed (data.reason password_already_set) once the user has set a password.',
    },
  },
  {
    ...common,
    grants: ['tenant:ownership:update'],
    operationId: 'users.transfer-ownership',
    method: 'POST',
    path: `${user}/transfer-ownership`,
    summary: 'Transfer the owner role to this user',
    params: UserIdParams,
    errors: [409, 422],
    success: {
      status: 200,
      description:
        'The new owner. Users who held the owner role lose it and keep (or gain) admin, in the same transaction. The target must be an ACTIVE user (422 validation-failed otherwise); the current owner as target changes nothing.',
      schema: UserSchema,
    },
  },
  {
    ...read,
    operationId: 'users.skills.get',
    method: 'GET',
    path: `${user}/skills`,
    summary: "List a user's skills",
    params: UserIdParams,
    success: {
      status: 200,
      description: 'The skill offerings of the user.',
      schema: SkillOfferingListSchema,
    },
  },
  {
    ...write,
    operationId: 'users.skills.replace',
    method: 'PUT',
    path: `${user}/skills`,
    summary: "Replace a user's skills",
    params: UserIdParams,
    body: ReplaceUserSkillsSchema,
    success: { status: 200, description: 'The user with its new skills.', schema: UserSchema },
  },
  {
    ...read,
    operationId: 'users.tags.get',
    method: 'GET',
    path: `${user}/tags`,
    summary: "List a user's tags",
    params: UserIdParams,
    success: { status: 200, description: 'The tags of the user.', schema: TagReferenceListSchema },
  },
  {
    ...write,
    operationId: 'users.tags.replace',
    method: 'PUT',
    path: `${user}/tags`,
    summary: "Replace a user's tags",
    params: UserIdParams,
    body: ReplaceUserTagsSchema,
    success: { status: 200, description: 'The user with its new tags.', schema: UserSchema },
  },
  {
    ...common,
    tags: ['Roles'],
    grants: ['roles:read'],
    operationId: 'roles.list',
    method: 'GET',
    path: '/api/v2/roles',
    summary: 'List roles',
    success: {
      status: 200,
      description:
        'Every role with its grants: owner, admin, dispatcher, technician, driver. Role ids are stable.',
      schema: RoleListSchema,
    },
  },
  {
    ...common,
    tags: ['Current user'],
    operationId: 'me.get',
    method: 'GET',
    path: '/api/v2/me',
    summary: 'Get the caller',
    success: {
      status: 200,
      description:
        'The caller as a User; any authenticated principal, no grant needed. A service-account token gets its id, roles, status, timestamps and lock_version, no email or names, empty skills and tags, can_resend_set_password_email false.',
      schema: CurrentUserSchema,
    },
  },
  {
    ...common,
    tags: ['Current user'],
    operationId: 'me.change-password',
    method: 'POST',
    path: '/api/v2/me/change-password',
    summary: 'Change the own password',
    body: ChangePasswordSchema,
    errors: [401],
    success: {
      status: 204,
      description:
        'Changed. A wrong current_password is 401 login-failed and counts as a failed sign-in (the user is blocked after too many). Service accounts have no password: 403 access-denied, data.reason resource_locked.',
    },
  },
] as const satisfies readonly RouteSpec[];
