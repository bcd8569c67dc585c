/**
 * Routes of the `users` operation group (one Lambda): users, their skill and tag sets and
 * lifecycle actions, the role catalog, and the caller's own account (/me). Part of the route
 * table.
 */
import * as z from 'zod';
import { listRoles, roleIdOf } from '../../domain/roles/role.catalog.ts';
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
import { onePage } from '../crud-routes.ts';

const common = { group: 'users', tags: ['Users'], auth: 'bearer' } as const;
const read = { ...common, grants: ['users:read'] } as const;
const write = { ...common, grants: ['users:update'] } as const;
const user = '/api/v2/users/{user_id}';

// Examples: one dispatch office. Lukas Brandt, technician, is invited on 2 March, sets his
// password the same day (lock_version 1) and gets a second tag (lock_version 2, the state that
// users.get shows); each write example starts from that state. Jana Petersen is a dispatcher.
const ids = {
  gasSkill: '019bb18a-75c0-73d8-8c68-064a21259cf0',
  electricalSkill: '019bb18c-7190-73e3-986b-bd4a5d2490ee',
  nightShiftTag: '019bbbf7-38e0-70b8-be0c-e4242f35ec3f',
  onCallTag: '019bbbf8-9870-76fe-a636-9117cb924312',
  jana: '019c1d4f-e060-731a-b8ed-b9569fca0b5a',
  lukas: '019cad9d-67a0-77f5-96b9-283bd392bece',
};

/** Skill offerings of Lukas: their ids are derived from user and skill (stable). */
const gasOffering = {
  id: 'd126b307-8694-54bb-968d-acadb56821b8',
  name: 'Gas Appliance Safety',
  skill: ids.gasSkill,
  skill_type: 'CERTIFICATION',
  short_key: 'GAS',
};
const electricalOffering = {
  id: '7d738876-5f36-5972-b439-0dab17e82aec',
  name: 'Electrical Installation',
  skill: ids.electricalSkill,
  skill_type: 'TRADE',
  short_key: 'EI',
};
const nightShift = { id: ids.nightShiftTag, name: 'Night shift', color: '#1f3a93' };
const onCall = { id: ids.onCallTag, name: 'On call', color: '#e67e22' };

const lukasInvited = {
  id: ids.lukas,
  email: 'lukas.brandt@acme.example',
  phone_number: '+4915123456789',
  roles: ['technician'],
  skills: [gasOffering],
  firstname: 'Lukas',
  lastname: 'Brandt',
  created_at: '2026-03-02T08:15:00Z',
  updated_at: '2026-03-02T08:15:00Z',
  status: 'ACTIVE',
  lock_version: 0,
  can_resend_set_password_email: true,
  tags: [nightShift],
};

/** Lukas as users.get answers him; the write examples change this state. */
const lukas = {
  ...lukasInvited,
  updated_at: '2026-03-05T13:22:08Z',
  lock_version: 2,
  can_resend_set_password_email: false,
  tags: [nightShift, onCall],
};

const jana = {
  id: ids.jana,
  email: 'jana.petersen@acme.example',
  phone_number: '+493012345678',
  roles: ['dispatcher'],
  skills: [],
  firstname: 'Jana',
  lastname: 'Petersen',
  created_at: '2026-02-02T07:45:00Z',
  updated_at: '2026-02-19T15:10:42Z',
  status: 'ACTIVE',
  lock_version: 4,
  can_resend_set_password_email: false,
  tags: [onCall],
};

/** The Origin request header of the operations that mail a set-password link. */
const OriginHeader = z.object({
  origin: z
    .string()
    .max(2048)
    .optional()
    .meta({
      description:
        'The web origin the request comes from (browsers send it). When it is an http or https origin, the ' +
        'set-password page of the e-mailed link offers to continue there; anything else is ignored.',
    }),
});

/** What the set-password links of create and resend have in common. */
const setPasswordLink =
  'The link works once, for 72 hours by default, and replaces any earlier link of the user. When ' +
  'the request carries an `Origin` header with an http or https origin, the set-password page offers ' +
  'to continue there.';

/** How a status change reaches the user's tokens (authorization cache, oidc findAccount). */
const tokensRefused =
  "the user's access tokens are refused with 401 authentication-required (data.reason `token_invalid`) " +
  'within a few seconds, and sign-in and token refresh fail';

/** A lifecycle action: POST on the user, no body, the resulting user. */
function action<const A extends string>(name: A, summary: string, description: string, response: unknown) {
  return {
    ...write,
    operationId: `users.${name}` as `users.${A}`,
    method: 'POST',
    path: `${user}/${name}` as `${typeof user}/${A}`,
    summary,
    description,
    examples: { response },
    params: UserIdParams,
    success: { status: 200, description: 'The user after the action.', schema: UserSchema },
  } as const;
}

export const userRoutes = [
  {
    ...read,
    operationId: 'users.list',
    method: 'GET',
    path: '/api/v2/users',
    summary: 'List users',
    description:
      'The people of the workspace. Service accounts (the principals of client-credentials clients) ' +
      'are never listed. Without `status` only ACTIVE users are listed; `status=ALL` lists every ' +
      'status.\n\n' +
      'Default order: `lastname`, then `firstname`, both ascending, ties by `id`. Names and e-mails ' +
      'are ordered alphabetically with letter case and accents aside and numbers by value (`brandt` ' +
      'sorts between `Bauer` and `Busch`, `Öztürk` with `Ozturk`); a descending order is the exact ' +
      'reverse, ties included.\n\n' +
      '`role` takes a role name in any letter case, and a name that is no role is 422; `role_ids` ' +
      'takes ids of GET /api/v2/roles, and an id that names no role matches nothing (no error), as ' +
      'does an unknown id in `skill_ids`. `tag_names` compares whole tag names, regardless of letter ' +
      'case and accents. Skill definitions and tags that were deleted no longer match.\n\n' +
      '**Cost:** a page reads its own entries of the users index and its items; its total is a counter ' +
      'with `status` and one role (`role` or one `role_ids` value). `search` reads the users matching ' +
      'its longest word. Several roles, `skill_ids`, `tag_names` or `updated_from`/`updated_to` count ' +
      'their total by reading every index entry of the listed statuses (never the items): slower on ' +
      'large workspaces.',
    examples: {
      query: 'role=technician&tag_names=Night%20shift&sort=last_name:asc&sort=first_name:asc',
      response: onePage(lukas),
    },
    query: UserListQuery,
    success: { status: 200, description: 'A page of users.', schema: UserListSchema },
  },
  {
    ...write,
    operationId: 'users.create',
    method: 'POST',
    path: '/api/v2/users',
    summary: 'Create (invite) a user',
    description:
      'Invites a person to the workspace. The new user is ACTIVE, starts at `lock_version` 0 with ' +
      '`can_resend_set_password_email` true, and is sent an invitation e-mail with a set-password ' +
      `link. ${setPasswordLink} Should the e-mail fail to go out, the user is still created; send a ` +
      'new link with POST /api/v2/users/{user_id}/resend-set-password-email.\n\n' +
      '`email` is the login name: stored lower-cased, unique across every workspace of the identity ' +
      'realm, and immutable afterwards. A taken e-mail, in any letter case, is 409 ' +
      'resource-conflict with `errors[].pointer` `#/email`.\n\n' +
      '`role_ids` needs at least one id of GET /api/v2/roles and cannot hold the owner role, which ' +
      'moves only by transfer-ownership. `skill_ids` and `tag_ids` name skill definitions and tags ' +
      'of this workspace; omitted, the user has none. An unknown or repeated id is 422 pointing at ' +
      'its index (`#/tag_ids/1`). `phone_number` needs an explicit `+` country code and is answered ' +
      'as E.164.\n\n' +
      'Emits `user.created`; each tag given counts the user in its `usage_count`.',
    examples: {
      request: {
        email: 'lukas.brandt@acme.example',
        firstname: 'Lukas',
        lastname: 'Brandt',
        phone_number: '+49 151 2345 6789',
        role_ids: [roleIdOf('technician')],
        skill_ids: [ids.gasSkill],
        tag_ids: [ids.nightShiftTag],
      },
      response: lukasInvited,
    },
    headers: OriginHeader,
    body: CreateUserSchema,
    errors: [409],
    success: { status: 201, description: 'The created user; Location names it.', schema: UserSchema },
  },
  {
    ...read,
    operationId: 'users.get',
    method: 'GET',
    path: user,
    summary: 'Get a user',
    description:
      'The user with this id, its skills and tags resolved (skill definitions and tags deleted since ' +
      'are left out). An id of another workspace, of a service account, or a malformed one is 404 ' +
      'not-found like an unknown one. `phone_number` is omitted when the user has none.',
    examples: { response: lukas },
    params: UserIdParams,
    success: { status: 200, description: 'The user.', schema: UserSchema },
  },
  {
    ...write,
    operationId: 'users.update',
    method: 'PATCH',
    path: user,
    summary: 'Update a user (JSON Merge Patch)',
    description:
      'Changes the fields sent and keeps the others; send application/merge-patch+json ' +
      '(application/json is accepted as an alias).\n\n' +
      '`phone_number` is cleared with null. `skill_ids` and `tag_ids` replace the whole set, and ' +
      'null clears it; an unknown or repeated id is 422 pointing at its index. `firstname` and ' +
      '`lastname` cannot be null or blank, nor `role_ids` null (422 field-required); `role_ids` ' +
      'cannot be empty either.\n\n' +
      '`email` is immutable: it is accepted only when equal to the stored e-mail in any letter case; ' +
      'another value is 422 at `#/email`. The owner role is neither given nor taken here: `role_ids` ' +
      'must hold it exactly when the user is the owner (422 at `#/role_ids` otherwise); use ' +
      'transfer-ownership. `status` and `can_resend_set_password_email` are not writable (unknown ' +
      'keys are ignored): the status moves through activate, deactivate and unblock.\n\n' +
      'Every successful PATCH increments `lock_version`, even one that changes nothing. Emits ' +
      "`user.updated` with the previous values of what changed; tags' `usage_count` follow a new " +
      "tag set. A role change reaches the user's next requests within a few seconds.",
    examples: {
      request: {
        phone_number: '+49 (30) 9876-5432',
        role_ids: [roleIdOf('technician'), roleIdOf('driver')],
        lock_version: 2,
      },
      response: {
        ...lukas,
        phone_number: '+493098765432',
        roles: ['technician', 'driver'],
        updated_at: '2026-03-16T09:05:00Z',
        lock_version: 3,
      },
    },
    params: UserIdParams,
    body: UpdateUserSchema,
    mergePatch: true,
    success: { status: 200, description: 'The updated user.', schema: UserSchema },
  },
  action(
    'deactivate',
    'Deactivate a user',
    'Sets the user INACTIVE, from ACTIVE or BLOCKED: ' +
      tokensRefused +
      '. Roles, skills and tags are kept; activate brings the user back. A user already INACTIVE ' +
      'is answered unchanged, without a write (same `lock_version`, no event).\n\n' +
      'The workspace owner cannot be deactivated: 403 access-denied with data.reason ' +
      '`resource_locked`; transfer the ownership first. Emits `user.updated`.',
    { ...lukas, updated_at: '2026-06-30T16:00:00Z', status: 'INACTIVE', lock_version: 3 },
  ),
  action(
    'activate',
    'Activate a user',
    'Sets an INACTIVE or BLOCKED user ACTIVE again and forgets its failed sign-ins, so the user ' +
      'may sign in and its tokens are accepted again. A user already ACTIVE is answered unchanged, ' +
      'without a write (same `lock_version`, no event), but its count of failed sign-ins is reset ' +
      'too. Emits `user.updated` when the status changes.',
    { ...lukas, updated_at: '2026-08-03T07:30:00Z', lock_version: 4 },
  ),
  {
    ...action(
      'unblock',
      'Unblock a user',
      'Security recovery for a user the service BLOCKED after too many consecutive wrong passwords ' +
        '(10 by default, at sign-in or at POST /api/v2/me/change-password): the user becomes ACTIVE ' +
        'and its failed sign-ins are forgotten. Any other user, an INACTIVE one included, is answered ' +
        'unchanged with 200 and no write; activate is what brings back a deactivated user. Emits ' +
        '`user.updated` when the status changes.\n\n' +
        'The unblocked user is told by e-mail, with a link to set a new password (it works once, for 72 hours ' +
        'by default; the old password works too). When the request carries an `Origin` header with an http or ' +
        'https origin, the set-password page offers to continue there.',
      { ...lukas, updated_at: '2026-04-14T06:52:31Z', lock_version: 4 },
    ),
    headers: OriginHeader,
  },
  {
    ...write,
    operationId: 'users.resend-set-password-email',
    method: 'POST',
    path: `${user}/resend-set-password-email`,
    summary: 'Send a new set-password e-mail',
    description:
      'E-mails the user a new set-password link, while the user has not set a password yet ' +
      `(\`can_resend_set_password_email\` true). ${setPasswordLink} The user record does not change ` +
      '(same `lock_version`, no event).\n\n' +
      'Once the user has set a password through a link, the answer is 422 validation-failed with ' +
      'data.reason `password_already_set` and nothing is sent. When the e-mail cannot be handed ' +
      'over for delivery (the mail service is down or slow) the answer is 503 service-unavailable ' +
      'with Retry-After; the call can be repeated.',
    examples: {},
    params: UserIdParams,
    headers: OriginHeader,
    errors: [422],
    success: { status: 202, description: 'Accepted; no body. The e-mail is on its way.' },
  },
  {
    ...common,
    grants: ['tenant:ownership:update'],
    operationId: 'users.transfer-ownership',
    method: 'POST',
    path: `${user}/transfer-ownership`,
    summary: 'Transfer the owner role to this user',
    description:
      'Makes this user the owner of the workspace: the user gains the owner role and keeps its other ' +
      'roles. Every other user who held the owner role loses it and keeps admin (or gains it), in ' +
      'the same transaction, with one `user.updated` event per changed user; a caller who was the ' +
      'owner no longer holds `tenant:ownership:update` afterwards. Service accounts whose client ' +
      'gives them the owner role keep it.\n\n' +
      'The target must be an ACTIVE user: otherwise 422 validation-failed with data.reason ' +
      '`user_not_active`. A service account id is 404 like an unknown one. Naming the current owner ' +
      'changes nothing (200, no write). 409 resource-conflict when one of the users changed while ' +
      'the ownership moved; nothing was changed and the call can be repeated.',
    examples: {
      response: {
        ...jana,
        roles: ['owner', 'dispatcher'],
        updated_at: '2026-09-01T12:00:00Z',
        lock_version: 5,
      },
    },
    params: UserIdParams,
    errors: [409, 422],
    success: { status: 200, description: 'The new owner.', schema: UserSchema },
  },
  {
    ...read,
    operationId: 'users.skills.get',
    method: 'GET',
    path: `${user}/skills`,
    summary: "List a user's skills",
    description:
      'The skill definitions the user offers, as skill offerings in the order of the last ' +
      '`skill_ids` written; not paginated. An offering `id` stays the same for one user and one ' +
      'skill definition, across reads and rewrites of the set. Skill definitions deleted since are ' +
      'left out. The list is the `skills` of the user.',
    examples: { response: { items: [gasOffering] } },
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
    description:
      'Replaces the whole set of skill definitions the user offers: `skill_ids` is the new set and ' +
      '`[]` removes all; `skill_ids` itself is required. Each id must name a skill definition of ' +
      'this workspace and appear once (otherwise 422 at its index, e.g. `#/skill_ids/1`). Offerings ' +
      'kept keep their `id`.\n\n' +
      "`lock_version` is the user's own, the one PATCH uses, and the write increments it. Emits " +
      '`user.updated`.',
    examples: {
      request: { skill_ids: [ids.gasSkill, ids.electricalSkill], lock_version: 2 },
      response: {
        ...lukas,
        skills: [gasOffering, electricalOffering],
        updated_at: '2026-03-20T10:12:00Z',
        lock_version: 3,
      },
    },
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
    description:
      'The tags the user carries, in the order of the last `tag_ids` written; not paginated. Tags ' +
      'deleted since are left out. The list is the `tags` of the user.',
    examples: { response: { items: [nightShift, onCall] } },
    params: UserIdParams,
    success: { status: 200, description: 'The tags of the user.', schema: TagReferenceListSchema },
  },
  {
    ...write,
    operationId: 'users.tags.replace',
    method: 'PUT',
    path: `${user}/tags`,
    summary: "Replace a user's tags",
    description:
      'Replaces the whole set of tags the user carries: `tag_ids` is the new set and `[]` removes ' +
      'all; `tag_ids` itself is required. Each id must name a tag of this workspace and appear once ' +
      "(otherwise 422 at its index, e.g. `#/tag_ids/1`). The tags' `usage_count` follow in the same " +
      'transaction: tags removed count one user less, tags added one more.\n\n' +
      "`lock_version` is the user's own, the one PATCH uses, and the write increments it. Emits " +
      '`user.updated`.',
    examples: {
      request: { tag_ids: [ids.onCallTag], lock_version: 2 },
      response: { ...lukas, updated_at: '2026-03-23T08:00:00Z', lock_version: 3, tags: [onCall] },
    },
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
    description:
      'The fixed role catalog, the same in every workspace: owner, admin, dispatcher, technician and ' +
      'driver, in that order, each with its grants; not paginated. Roles cannot be created or ' +
      'changed. A role `id` never changes and is the same in every workspace and environment, so it ' +
      'can be kept in configuration; `role_ids` of user writes and of the user list take these ids.\n\n' +
      'admin has every grant except `tenant:ownership:update`. The owner role is given only by ' +
      'POST /api/v2/users/{user_id}/transfer-ownership, never by a user create or PATCH.',
    examples: { response: { items: listRoles() } },
    success: { status: 200, description: 'Every role with its grants.', schema: RoleListSchema },
  },
  {
    ...common,
    tags: ['Current user'],
    operationId: 'me.get',
    method: 'GET',
    path: '/api/v2/me',
    summary: 'Get the caller',
    description:
      "The caller of the request. A user's token gets the user, exactly as GET " +
      '/api/v2/users/{user_id} answers it. A service-account token (client-credentials grant) gets ' +
      'the service account: `id`, `roles`, `status`, `created_at`, `updated_at` and `lock_version`, ' +
      'without `email`, `firstname`, `lastname` or `phone_number`; `skills` and `tags` are empty and ' +
      '`can_resend_set_password_email` is false.',
    examples: { response: jana },
    success: { status: 200, description: 'The caller, as a user.', schema: CurrentUserSchema },
  },
  {
    ...common,
    tags: ['Current user'],
    operationId: 'me.change-password',
    method: 'POST',
    path: '/api/v2/me/change-password',
    summary: 'Change the own password',
    description:
      'Sets a new password for the calling user, without an e-mail round trip. `current_password` ' +
      'must be the password in force: a wrong one is 401 login-failed (the token stays valid) and ' +
      'counts as a failed sign-in. After 10 consecutive failures by default the user is BLOCKED, ' +
      'and its tokens are refused, until someone with `users:update` unblocks or activates it. ' +
      '`new_password` takes 8 to 256 characters.\n\n' +
      'Success resets the count of failed sign-ins and spends a set-password link that is still ' +
      'pending. Service accounts have no password: 403 access-denied with data.reason ' +
      '`resource_locked`.',
    examples: { request: { current_password: 'Tegel-depot-2026', new_password: 'blue-van-ladder-42' } },
    body: ChangePasswordSchema,
    errors: [401],
    success: { status: 204, description: 'Changed; no body.' },
  },
] as const satisfies readonly RouteSpec[];
