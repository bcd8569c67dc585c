/**
 * The identity provider's port to user accounts: checking a sign-in (with brute-force
 * protection), finding the account a token is issued for, and setting a password through the
 * link of a set-password e-mail. The users domain implements it over the table
 * (shared/domain/users/account.service.ts); unit tests of the provider may use a fake.
 *
 * Rules every implementation keeps:
 * - a sign-in succeeds only for an ACTIVE user of `workspaceId` (the workspace of the client
 *   the user signs in through) whose password matches;
 * - every failure looks the same to the caller (`invalid_credentials`) unless the account is
 *   known to be blocked or deactivated, so the form cannot be used to probe e-mails beyond
 *   what those two states reveal after a correct password;
 * - failures are counted per user (consecutive; the threshold blocks the user) and per client
 *   address (a window; past its threshold the address is throttled without checking anything).
 */
export type SignInOutcome =
  | { ok: true; userId: string }
  | {
      ok: false;
      reason: 'invalid_credentials' | 'blocked' | 'inactive' | 'throttled';
      /** With `throttled`: when the address may try again. */
      retryAfterSeconds?: number;
    };

export interface SignInAttempt {
  realm: string;
  /** The workspace of the OIDC client the user signs in through. */
  workspaceId: string;
  /** The login name (`username` form field): the e-mail, any case. */
  email: string;
  password: string;
  /** The client's IP address as the provider sees it (behind proxies: the trusted hop). */
  address: string;
}

/** What the provider puts into ID tokens and userinfo. */
export interface Account {
  id: string;
  workspaceId: string;
  email: string;
  firstname: string;
  lastname: string;
  /** RFC 3339. */
  updatedAt: string;
}

export type SetPasswordOutcome = 'ok' | 'invalid_token' | 'password_too_short';

export interface AccountService {
  signIn(attempt: SignInAttempt): Promise<SignInOutcome>;
  /**
   * The account while it may hold tokens: undefined unless the user exists in the workspace
   * and is ACTIVE (so a blocked or deactivated user's refresh fails).
   */
  findActiveAccount(workspaceId: string, userId: string): Promise<Account | undefined>;
  /** The e-mail a pending set-password link is for, or undefined when the link is unusable. */
  inspectSetPasswordToken(token: string): Promise<{ email: string } | undefined>;
  /** Set the password (minimum 8 characters) and spend the link. */
  setPasswordWithToken(token: string, password: string): Promise<SetPasswordOutcome>;
}
