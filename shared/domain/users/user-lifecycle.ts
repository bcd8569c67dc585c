/**
 * A user's lifecycle: deactivate (INACTIVE: no sign-in, tokens refused), activate (ACTIVE
 * again, failed sign-ins forgotten), unblock (BLOCKED → ACTIVE), the set-password reminder and
 * the transfer of the owner role.
 *
 * Actions are idempotent: a user already in the wanted state is answered as it is, without a
 * write (no new lock_version, no event). The workspace owner cannot be deactivated (403
 * resource_locked): a workspace always keeps someone who can administer it.
 */

import type { Actor } from '../../auth/actor.ts';
import { evictAuthCache } from '../../auth/authenticate.ts';
import { DataError } from '../../data/data-error.ts';
import {
  getWorkspace,
  listPrincipals,
  ownerWrite,
  type PrincipalRecord,
} from '../../data/directory.store.ts';
import { credentialStore } from './credential.store.ts';
import { loadCatalogs, toUser } from './user.representation.ts';
import type { User } from './user.schema.ts';
import { findUserOrThrow, invite, orderedRoles } from './user.service.ts';
import { replaceUsers, updateUser, userUpdatedEvent } from './user.store.ts';
import { UserError } from './user-error.ts';

function ownerLocked(): UserError {
  return new UserError('forbidden', {
    detail: 'The workspace owner cannot be deactivated; transfer ownership first.',
    data: { reason: 'resource_locked' },
  });
}

export async function deactivateUser(ctx: Actor, userId: string): Promise<User> {
  const [user, catalogs] = await Promise.all([
    findUserOrThrow(ctx.workspaceId, userId),
    loadCatalogs(ctx.workspaceId),
  ]);
  if (user.roles.includes('owner')) throw ownerLocked();
  if (user.status === 'INACTIVE') return toUser(user, catalogs);
  const { after } = await updateUser({
    actor: ctx,
    workspaceId: ctx.workspaceId,
    userId,
    catalogs,
    apply: (current) => {
      if (current.roles.includes('owner')) throw ownerLocked();
      return { ...current, status: 'INACTIVE' };
    },
  });
  return toUser(after, catalogs);
}

/**
 * Move a user to ACTIVE (from `from` states only) and forget its failed sign-ins; with
 * `resetWhenActive`, an ACTIVE user's failed sign-ins are forgotten too (no user write).
 */
async function reactivate(
  ctx: Actor,
  userId: string,
  from: ReadonlyArray<PrincipalRecord['status']>,
  resetWhenActive = false,
  /** Runs once the user moved to ACTIVE (not when it was answered unchanged). */
  afterReactivation?: (user: PrincipalRecord) => Promise<void>,
): Promise<User> {
  const [user, catalogs, credential] = await Promise.all([
    findUserOrThrow(ctx.workspaceId, userId),
    loadCatalogs(ctx.workspaceId),
    credentialStore.of(ctx).get(userId),
  ]);
  const reset = credentialStore.of(ctx).failuresReset(userId, credential?.failed_logins);
  if (!from.includes(user.status)) {
    if (resetWhenActive && user.status === 'ACTIVE') {
      await credentialStore.of(ctx).resetFailures(userId, credential?.failed_logins);
    }
    return toUser(user, catalogs);
  }
  const { after } = await updateUser({
    actor: ctx,
    workspaceId: ctx.workspaceId,
    userId,
    catalogs,
    apply: (current) => ({ ...current, status: 'ACTIVE' }),
    extra: () => (reset ? [reset] : []),
  });
  await afterReactivation?.(after);
  return toUser(after, catalogs);
}

/** Any state → ACTIVE; an ACTIVE user is answered unchanged (its failed sign-ins are reset). */
export function activateUser(ctx: Actor, userId: string): Promise<User> {
  return reactivate(ctx, userId, ['BLOCKED', 'INACTIVE'], true);
}

/**
 * BLOCKED → ACTIVE; a user that is not blocked is answered unchanged (200, no write). An
 * unblocked user is told by e-mail, with a link to set a new password (ten wrong passwords
 * usually mean a forgotten one) that continues at the caller's Origin when it sent one.
 */
export function unblockUser(ctx: Actor, userId: string, origin?: string): Promise<User> {
  return reactivate(ctx, userId, ['BLOCKED'], false, async (user) => {
    const workspace = await getWorkspace(ctx.workspaceId);
    if (workspace) await invite(workspace.realm, user, origin, 'recovery');
  });
}

/** A new set-password link by e-mail, while the user has not set a password yet. */
export async function resendSetPasswordEmail(
  ctx: Actor,
  userId: string,
  origin: string | undefined,
): Promise<void> {
  const [user, workspace] = await Promise.all([
    findUserOrThrow(ctx.workspaceId, userId),
    getWorkspace(ctx.workspaceId),
  ]);
  if (!workspace) throw new UserError('not-found', { detail: 'The workspace no longer exists.' });
  if (!user.can_resend_set_password_email) {
    throw new UserError('invalid', {
      detail:
        'This user has already set a password (can_resend_set_password_email is false); no set-password e-mail is sent.',
      data: { reason: 'password_already_set' },
    });
  }
  await invite(workspace.realm, user, origin, 'reminder');
}

/**
 * Give the owner role to an ACTIVE user of the workspace. Every other user holding it loses
 * it and keeps (or gains) admin, in one transaction with one `user.updated` event per user.
 * A service account that holds the owner role by its client configuration keeps it: only
 * users are changed. Transferring to the current owner changes nothing.
 */
export async function transferOwnership(ctx: Actor, userId: string): Promise<User> {
  const workspaceId = ctx.workspaceId;
  const [principals, catalogs] = await Promise.all([listPrincipals(workspaceId), loadCatalogs(workspaceId)]);
  const target = principals.find((p) => p.id === userId && p.kind === 'user');
  if (!target) throw new UserError('not-found');
  if (target.status !== 'ACTIVE') {
    throw new UserError('invalid', {
      detail: `Only an ACTIVE user can become the owner; this user is ${target.status}.`,
      data: { reason: 'user_not_active' },
    });
  }
  if (target.roles.includes('owner')) return toUser(target, catalogs);

  const now = new Date().toISOString();
  const changed = (current: PrincipalRecord, roles: string[]): PrincipalRecord => ({
    ...current,
    roles: orderedRoles(roles),
    updated_at: now,
    lock_version: current.lock_version + 1,
  });
  const newOwner = changed(target, [...target.roles, 'owner']);
  const formerOwners = principals
    .filter((p) => p.kind === 'user' && p.id !== target.id && p.roles.includes('owner'))
    .map((p) => ({ before: p, after: changed(p, [...p.roles.filter((r) => r !== 'owner'), 'admin']) }));
  const changes = [{ before: target, after: newOwner }, ...formerOwners].map(({ before, after }) => ({
    before,
    after,
    event: userUpdatedEvent(ctx, before, after, catalogs),
  }));
  try {
    await replaceUsers(workspaceId, changes, [ownerWrite(workspaceId, newOwner.id)]);
  } catch (error) {
    if (error instanceof DataError && (error.code === 'version-conflict' || error.code === 'not-found')) {
      throw new UserError('conflict', { detail: 'A user changed while ownership was transferred; retry.' });
    }
    throw error;
  } finally {
    evictAuthCache(workspaceId);
  }
  return toUser(newOwner, catalogs);
}
