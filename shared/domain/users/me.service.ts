/**
 * The caller's own account: GET /api/v2/me and POST /api/v2/me/change-password. Any
 * authenticated principal may call them; no grant is needed.
 *
 * A wrong current password is 401 `login-failed` and counts as a failed sign-in (so a stolen
 * token cannot be used to guess the password without blocking the user). Service accounts
 * have no password: 403 access-denied, reason resource_locked.
 */
import type { z } from 'zod';
import type { Actor } from '../../auth/actor.ts';
import { hashPassword } from '../../auth/password-hash.ts';
import { getPrincipal } from '../../data/directory.store.ts';
import { passwordMatches, recordFailedPasswordCheck } from './account.service.ts';
import { type CredentialRecord, credentialStore } from './credential.store.ts';
import { catalogsFor, toUser } from './user.representation.ts';
import type { ChangePasswordSchema, User } from './user.schema.ts';
import { UserError } from './user-error.ts';

export async function getMe(ctx: Actor): Promise<User> {
  const principal = await getPrincipal(ctx.workspaceId, ctx.principal.id);
  if (!principal) throw new UserError('not-found', { detail: 'The caller no longer exists.' });
  return toUser(principal, await catalogsFor(ctx.workspaceId, [principal]));
}

export async function changeOwnPassword(
  ctx: Actor,
  input: z.output<typeof ChangePasswordSchema>,
): Promise<void> {
  const { workspaceId } = ctx;
  const userId = ctx.principal.id;
  if (ctx.principal.kind !== 'user') {
    throw new UserError('forbidden', {
      detail: 'Service accounts have no password; their client secret is managed with the client.',
      data: { reason: 'resource_locked' },
    });
  }
  const credentials = credentialStore.of(workspaceId);
  const credential = await credentials.get(userId);
  if (!(await passwordMatches(input.current_password, credential?.password_hash))) {
    await recordFailedPasswordCheck(workspaceId, userId);
    throw new UserError('login-failed', { detail: 'The current password is not correct.' });
  }
  // A password change also spends any pending set-password link.
  const {
    set_password_token_hash: _hash,
    set_password_token_expires_at: _expires,
    ...kept
  } = credential as CredentialRecord;
  await credentials.put({
    ...kept,
    user_id: userId,
    password_hash: await hashPassword(input.new_password),
    failed_logins: 0,
    updated_at: new Date().toISOString(),
  });
}
