/** Users, roles and the caller's own account: parse, call the domain, respond. */
import { listRoles } from '../../shared/domain/roles/role.catalog.ts';
import { changeOwnPassword, getMe } from '../../shared/domain/users/me.service.ts';
import * as users from '../../shared/domain/users/user.service.ts';
import * as lifecycle from '../../shared/domain/users/user-lifecycle.ts';
import { listUsers } from '../../shared/domain/users/user-list.ts';
import { header } from '../../shared/http/api-gateway.ts';
import { createGroupHandler } from '../../shared/http/group-handler.ts';
import { userRoutes } from '../../shared/routes/groups/users.routes.ts';

export const handler = createGroupHandler(userRoutes, {
  'users.list': async ({ ctx, query }) => ({ body: await listUsers(ctx, query) }),
  'users.create': async ({ ctx, body, event }) => {
    const user = await users.createUser(ctx, body, header(event, 'origin'));
    return { body: user, location: `/api/v2/users/${user.id}` };
  },
  'users.get': async ({ ctx, params }) => ({ body: await users.getUser(ctx, params.user_id) }),
  'users.update': async ({ ctx, params, body }) => ({
    body: await users.patchUser(ctx, params.user_id, body),
  }),
  'users.deactivate': async ({ ctx, params }) => ({
    body: await lifecycle.deactivateUser(ctx, params.user_id),
  }),
  'users.activate': async ({ ctx, params }) => ({ body: await lifecycle.activateUser(ctx, params.user_id) }),
  'users.unblock': async ({ ctx, params, event }) => ({
    body: await lifecycle.unblockUser(ctx, params.user_id, header(event, 'origin')),
  }),
  'users.resend-set-password-email': async ({ ctx, params, event }) => {
    await lifecycle.resendSetPasswordEmail(ctx, params.user_id, header(event, 'origin'));
    return {};
  },
  'users.transfer-ownership': async ({ ctx, params }) => ({
    body: await lifecycle.transferOwnership(ctx, params.user_id),
  }),
  'users.skills.get': async ({ ctx, params }) => ({ body: await users.getUserSkills(ctx, params.user_id) }),
  'users.skills.replace': async ({ ctx, params, body }) => ({
    body: await users.replaceUserSkills(ctx, params.user_id, body),
  }),
  'users.tags.get': async ({ ctx, params }) => ({ body: await users.getUserTags(ctx, params.user_id) }),
  'users.tags.replace': async ({ ctx, params, body }) => ({
    body: await users.replaceUserTags(ctx, params.user_id, body),
  }),
  'roles.list': async () => ({ body: { items: listRoles() } }),
  'me.get': async ({ ctx }) => ({ body: await getMe(ctx) }),
  'me.change-password': async ({ ctx, body }) => {
    await changeOwnPassword(ctx, body);
    return {};
  },
});
