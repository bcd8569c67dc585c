/**
 * The identity provider's AccountService (shared/identity/accounts.ts) over the table: the
 * sign-in check with brute-force protection (brute-force.ts), the account a token is issued
 * for, and setting a password through a set-password link.
 *
 * Sign-in rules, in order:
 * 1. a throttled client address is refused before anything is looked up;
 * 2. an unknown e-mail, or one of a user of another workspace than the client's, fails like a
 *    wrong password (same timing: a dummy scrypt verify runs) and counts against the address;
 * 3. a BLOCKED or INACTIVE user learns its state only with the right password; a wrong one is
 *    `invalid_credentials` and counts against the address only;
 * 4. an ACTIVE user's wrong password (or no password yet) counts against the user and the
 *    address; the user's FSM_LOGIN_MAX_FAILURES-th consecutive failure blocks the user;
 * 5. success resets the user's failures.
 */
import { randomBytes } from 'node:crypto';
import { hashPassword, verifyPassword } from '../../auth/password-hash.ts';
import { findEmail } from '../../data/directory.store.ts';
import type { Account, AccountService, SignInAttempt, SignInOutcome } from '../../identity/accounts.ts';
import { logger } from '../../observability/logger.ts';
import { addressThrottledFor, countAddressFailure, countUserFailure, loginLimits } from './brute-force.ts';
import { type CredentialRecord, credentialStore } from './credential.store.ts';
import { parseSetPasswordToken, setPasswordTokenMatches } from './set-password-invitation.ts';
import { loadCatalogs } from './user.representation.ts';
import { findUser, updateUser } from './user.store.ts';

export const minimumPasswordLength = 8;

const invalidCredentials: SignInOutcome = { ok: false, reason: 'invalid_credentials' };

let dummyHash: Promise<string> | undefined;

/**
 * Check a password against a stored hash; without a hash, verify against a throw-away one so
 * that "no such user" and "no password yet" take as long as a wrong password.
 */
export async function passwordMatches(password: string, storedHash: string | undefined): Promise<boolean> {
  if (storedHash) return verifyPassword(password, storedHash);
  dummyHash ??= hashPassword(randomBytes(24).toString('base64url'));
  await verifyPassword(password, await dummyHash);
  return false;
}

/**
 * Count a wrong password of an ACTIVE user (sign-in or change-password) and block the user
 * when the count reaches the threshold. Blocking is a versioned write of the user with a
 * `user.updated` event by SYSTEM.
 */
export async function recordFailedPasswordCheck(workspaceId: string, userId: string): Promise<void> {
  const failures = await countUserFailure(workspaceId, userId);
  if (failures < loginLimits().maxFailures) return;
  const catalogs = await loadCatalogs(workspaceId);
  try {
    await updateUser({
      actor: 'SYSTEM',
      workspaceId,
      userId,
      catalogs,
      apply: (current) => {
        if (current.status !== 'ACTIVE') throw new AlreadyBlocked();
        return { ...current, status: 'BLOCKED' };
      },
    });
    logger.warn('user blocked after failed sign-ins', { workspaceId, userId, failures });
  } catch (error) {
    // Someone else (a concurrent failure, an admin) already moved the user out of ACTIVE.
    if (!(error instanceof AlreadyBlocked)) throw error;
  }
}

class AlreadyBlocked extends Error {}

async function signIn(attempt: SignInAttempt): Promise<SignInOutcome> {
  const { realm, workspaceId, password, address } = attempt;
  const retryAfterSeconds = await addressThrottledFor(realm, address);
  if (retryAfterSeconds !== undefined) return { ok: false, reason: 'throttled', retryAfterSeconds };

  const guard = await findEmail(realm, attempt.email.trim());
  const [user, credential] =
    guard && guard.workspace_id === workspaceId
      ? await Promise.all([
          findUser(workspaceId, guard.user_id),
          credentialStore.of(workspaceId).get(guard.user_id),
        ])
      : [undefined, undefined];
  if (!user) {
    await Promise.all([passwordMatches(password, undefined), countAddressFailure(realm, address)]);
    return invalidCredentials;
  }

  const matches = await passwordMatches(password, credential?.password_hash);
  if (user.status !== 'ACTIVE') {
    if (matches) return { ok: false, reason: user.status === 'BLOCKED' ? 'blocked' : 'inactive' };
    await countAddressFailure(realm, address);
    return invalidCredentials;
  }
  if (!matches) {
    await Promise.all([countAddressFailure(realm, address), recordFailedPasswordCheck(workspaceId, user.id)]);
    return invalidCredentials;
  }
  await credentialStore.of(workspaceId).resetFailures(user.id, credential?.failed_logins);
  return { ok: true, userId: user.id };
}

async function findActiveAccount(workspaceId: string, userId: string): Promise<Account | undefined> {
  const user = await findUser(workspaceId, userId);
  if (user?.status !== 'ACTIVE') return undefined;
  return {
    id: user.id,
    workspaceId,
    email: user.email ?? '',
    firstname: user.firstname ?? '',
    lastname: user.lastname ?? '',
    updatedAt: user.updated_at,
  };
}

/** The user and credential a set-password link is for, while the link is usable. */
async function pendingLink(token: string) {
  const parts = parseSetPasswordToken(token);
  if (!parts) return undefined;
  const [user, credential] = await Promise.all([
    findUser(parts.workspaceId, parts.userId),
    credentialStore.of(parts.workspaceId).get(parts.userId),
  ]);
  if (!user || !credential || !setPasswordTokenMatches(credential, parts.secret)) return undefined;
  return { user, credential };
}

async function inspectSetPasswordToken(token: string): Promise<{ email: string } | undefined> {
  const link = await pendingLink(token);
  return link?.user.email ? { email: link.user.email } : undefined;
}

async function setPasswordWithToken(token: string, password: string) {
  const link = await pendingLink(token);
  if (!link) return 'invalid_token' as const;
  if (password.length < minimumPasswordLength) return 'password_too_short' as const;
  const { user, credential } = link;
  const { set_password_token_hash: hash, set_password_token_expires_at: _expires, ...kept } = credential;
  // Spend the link first: of two concurrent submissions only one may set a password. Should
  // the writes below fail, the user asks for a new link (can_resend stays true until then).
  const credentials = credentialStore.of(user.workspace_id);
  if (!hash || !(await credentials.claimLink(user.id, hash))) return 'invalid_token' as const;
  const next: CredentialRecord = {
    ...kept,
    user_id: user.id,
    workspace_id: user.workspace_id,
    password_hash: await hashPassword(password),
    failed_logins: 0,
    updated_at: new Date().toISOString(),
  };
  if (user.can_resend_set_password_email) {
    await updateUser({
      actor: 'SYSTEM',
      workspaceId: user.workspace_id,
      userId: user.id,
      catalogs: await loadCatalogs(user.workspace_id),
      apply: (current) => ({ ...current, can_resend_set_password_email: false }),
      extra: () => [credentials.write(next)],
    });
  } else {
    await credentials.put(next);
  }
  return 'ok' as const;
}

export const accountService: AccountService = {
  signIn,
  findActiveAccount,
  inspectSetPasswordToken,
  setPasswordWithToken,
};
