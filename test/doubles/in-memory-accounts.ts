/**
 * An AccountService over fixed users in memory, for unit tests of the provider. It keeps the
 * port's rules in their simplest form (shared/identity/accounts.ts): ACTIVE users of the client's workspace
 * sign in with their password; blocked and inactive states show only with the right password;
 * `maxFailures` consecutive failures block; a throttled address is refused before anything.
 * The users domain (shared/domain/users/account.service.ts) is the real implementation.
 */
import type {
  Account,
  AccountService,
  SetPasswordOutcome,
  SignInAttempt,
  SignInOutcome,
} from '../../shared/identity/accounts.ts';

export interface MemoryUser {
  id: string;
  workspaceId: string;
  email: string;
  password?: string | undefined;
  status: 'ACTIVE' | 'BLOCKED' | 'INACTIVE';
  firstname: string;
  lastname: string;
  updatedAt: string;
  failures?: number;
}

export interface InMemoryAccounts extends AccountService {
  users: Map<string, MemoryUser>;
  /** Link token → user id. */
  links: Map<string, string>;
  /** Addresses refused as throttled, with their Retry-After. */
  throttled: Map<string, number>;
  /** Every sign-in attempt, as received. */
  attempts: SignInAttempt[];
}

export function inMemoryAccounts(users: MemoryUser[], maxFailures = 10): InMemoryAccounts {
  const byId = new Map(users.map((user) => [user.id, { ...user }]));
  const links = new Map<string, string>();
  const throttled = new Map<string, number>();
  const attempts: SignInAttempt[] = [];
  const toAccount = (user: MemoryUser): Account => ({
    id: user.id,
    workspaceId: user.workspaceId,
    email: user.email,
    firstname: user.firstname,
    lastname: user.lastname,
    updatedAt: user.updatedAt,
  });
  return {
    users: byId,
    links,
    throttled,
    attempts,
    async signIn(attempt): Promise<SignInOutcome> {
      attempts.push(attempt);
      const retryAfterSeconds = throttled.get(attempt.address);
      if (retryAfterSeconds !== undefined) return { ok: false, reason: 'throttled', retryAfterSeconds };
      const user = [...byId.values()].find(
        (candidate) =>
          candidate.workspaceId === attempt.workspaceId &&
          candidate.email.toLowerCase() === attempt.email.trim().toLowerCase(),
      );
      if (!user) return { ok: false, reason: 'invalid_credentials' };
      const matches = user.password !== undefined && user.password === attempt.password;
      if (user.status !== 'ACTIVE') {
        return matches
          ? { ok: false, reason: user.status === 'BLOCKED' ? 'blocked' : 'inactive' }
          : { ok: false, reason: 'invalid_credentials' };
      }
      if (!matches) {
        user.failures = (user.failures ?? 0) + 1;
        if (user.failures >= maxFailures) user.status = 'BLOCKED';
        return { ok: false, reason: 'invalid_credentials' };
      }
      user.failures = 0;
      return { ok: true, userId: user.id };
    },
    async findActiveAccount(workspaceId, userId) {
      const user = byId.get(userId);
      return user && user.workspaceId === workspaceId && user.status === 'ACTIVE'
        ? toAccount(user)
        : undefined;
    },
    async inspectSetPasswordToken(token) {
      const user = byId.get(links.get(token) ?? '');
      return user ? { email: user.email } : undefined;
    },
    async setPasswordWithToken(token, password): Promise<SetPasswordOutcome> {
      const user = byId.get(links.get(token) ?? '');
      if (!user) return 'invalid_token';
      if (password.length < 8) return 'password_too_short';
      user.password = password;
      links.delete(token);
      return 'ok';
    },
  };
}
