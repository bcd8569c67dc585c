/**
 * The sign-in rules of the AccountService (account.service.ts) over faked storage: what is
 * counted, when a user is blocked, what each state reveals, and how a set-password link is
 * spent. The table itself is faked; the scrypt hashing is real.
 */
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { hashPassword } from '../../auth/password-hash.ts';
import type { CredentialRecord, EmailGuardRecord, PrincipalRecord } from '../../data/directory.store.ts';
import type { TableWrite } from '../../data/table.ts';

const store = vi.hoisted(() => ({
  guards: new Map<string, EmailGuardRecord>(),
  principals: new Map<string, PrincipalRecord>(),
  credentials: new Map<string, CredentialRecord>(),
  addressFailures: new Map<string, number>(),
  transactions: [] as TableWrite[][],
  userUpdates: [] as Array<{
    actor: unknown;
    before: PrincipalRecord;
    after: PrincipalRecord;
    extra: TableWrite[];
  }>,
}));

vi.mock('../../data/directory.store.ts', () => ({
  findEmail: async (_realm: string, email: string) => store.guards.get(email.toLowerCase()),
  getCredential: async (_ws: string, userId: string) => {
    const credential = store.credentials.get(userId);
    return credential ? { ...credential } : undefined;
  },
  claimSetPasswordLink: async (_ws: string, userId: string, tokenHash: string) => {
    // As the conditional UpdateItem: only while the stored hash is still this one.
    const credential = store.credentials.get(userId);
    if (credential?.set_password_token_hash !== tokenHash) return false;
    delete credential.set_password_token_hash;
    delete credential.set_password_token_expires_at;
    return true;
  },
  credentialWrite: (credential: CredentialRecord): TableWrite => ({
    kind: 'put',
    key: { pk: 'CREDENTIAL', sk: credential.user_id },
    entity: 'credential',
    record: { ...credential },
  }),
}));

vi.mock('../../data/table.ts', () => ({
  getRecord: async (key: { sk: string }) => {
    const failed = store.addressFailures.get(key.sk);
    return failed === undefined ? undefined : { failed };
  },
  incrementCounter: async (
    key: { pk: string; sk: string },
    _entity: string,
    attribute: string,
    by: number,
  ) => {
    if (attribute === 'failed') {
      const next = (store.addressFailures.get(key.sk) ?? 0) + by;
      store.addressFailures.set(key.sk, next);
      return next;
    }
    const credential = store.credentials.get(key.sk) ?? ({ user_id: key.sk } as CredentialRecord);
    credential.failed_logins = (credential.failed_logins ?? 0) + by;
    store.credentials.set(key.sk, credential);
    return credential.failed_logins;
  },
  transactWrite: async (writes: TableWrite[]) => {
    store.transactions.push(writes);
    for (const write of writes) applyWrite(write);
  },
}));

vi.mock('./user.representation.ts', () => ({
  loadCatalogs: async () => ({ skills: new Map(), tags: new Map() }),
}));

vi.mock('./user.store.ts', () => ({
  findUser: async (_ws: string, userId: string) => {
    const principal = store.principals.get(userId);
    return principal?.kind === 'user' ? { ...principal } : undefined;
  },
  updateUser: async (params: {
    actor: unknown;
    userId: string;
    apply: (current: PrincipalRecord) => PrincipalRecord;
    extra?: (next: PrincipalRecord, current: PrincipalRecord) => TableWrite[];
  }) => {
    const before = store.principals.get(params.userId) as PrincipalRecord;
    const after = { ...params.apply({ ...before }), lock_version: before.lock_version + 1 };
    const extra = params.extra?.(after, before) ?? [];
    for (const write of extra) applyWrite(write);
    store.principals.set(after.id, after);
    store.userUpdates.push({ actor: params.actor, before, after, extra });
    return { before, after };
  },
}));

function applyWrite(write: TableWrite) {
  if (!('entity' in write) || write.entity !== 'credential') return;
  if (write.kind === 'put') store.credentials.set(write.key.sk, write.record as unknown as CredentialRecord);
  if (write.kind === 'add') {
    const credential = store.credentials.get(write.key.sk) as CredentialRecord;
    credential.failed_logins = (credential.failed_logins ?? 0) + write.by;
  }
}

const { accountService } = await import('./account.service.ts');
const { parseSetPasswordToken } = await import('./set-password-invitation.ts');

const workspaceId = '11111111-1111-4111-8111-111111111111';
const otherWorkspaceId = '22222222-2222-4222-8222-222222222222';
const userId = '33333333-3333-4333-8333-333333333333';
const password = 'correct-horse-battery';
let passwordHash: string;

function seedUser(overrides: Partial<PrincipalRecord> = {}, credential: Partial<CredentialRecord> = {}) {
  store.guards.set('sam@example.test', {
    email: 'sam@example.test',
    workspace_id: workspaceId,
    user_id: userId,
  });
  store.principals.set(userId, {
    id: userId,
    workspace_id: workspaceId,
    kind: 'user',
    status: 'ACTIVE',
    roles: ['technician'],
    email: 'sam@example.test',
    firstname: 'Sam',
    lastname: 'Sample',
    can_resend_set_password_email: false,
    created_at: '2024-01-01T00:00:00.000Z',
    updated_at: '2024-01-01T00:00:00.000Z',
    lock_version: 0,
    ...overrides,
  });
  store.credentials.set(userId, {
    user_id: userId,
    workspace_id: workspaceId,
    password_hash: passwordHash,
    failed_logins: 0,
    updated_at: '2024-01-01T00:00:00.000Z',
    ...credential,
  });
}

const attempt = (overrides: Partial<Parameters<typeof accountService.signIn>[0]> = {}) =>
  accountService.signIn({
    realm: 'shared',
    workspaceId,
    email: 'Sam@Example.test',
    password,
    address: '203.0.113.7',
    ...overrides,
  });

beforeAll(async () => {
  passwordHash = await hashPassword(password);
});

beforeEach(() => {
  store.guards.clear();
  store.principals.clear();
  store.credentials.clear();
  store.addressFailures.clear();
  store.transactions.length = 0;
  store.userUpdates.length = 0;
  vi.unstubAllEnvs();
});

describe('AccountService: signIn', () => {
  it('signs an ACTIVE user in with the right password, the e-mail in any case', async () => {
    seedUser();

    expect(await attempt()).toEqual({ ok: true, userId });
    expect(store.transactions).toEqual([]);
  });

  it('resets earlier failures on success', async () => {
    seedUser({}, { failed_logins: 4 });

    await attempt();

    expect(store.credentials.get(userId)?.failed_logins).toBe(0);
  });

  it.each([
    { title: 'an unknown e-mail', email: 'nobody@example.test', workspace: workspaceId },
    { title: 'a user of another workspace', email: 'sam@example.test', workspace: otherWorkspaceId },
  ])('answers invalid_credentials for $title and counts the address only', async ({ email, workspace }) => {
    seedUser();

    const outcome = await attempt({ email, workspaceId: workspace });

    expect(outcome).toEqual({ ok: false, reason: 'invalid_credentials' });
    expect(store.addressFailures.get('203.0.113.7')).toBe(1);
    expect(store.credentials.get(userId)?.failed_logins).toBe(0);
  });

  it('counts a wrong password against the user and the address', async () => {
    seedUser();

    const outcome = await attempt({ password: 'wrong' });

    expect(outcome).toEqual({ ok: false, reason: 'invalid_credentials' });
    expect(store.credentials.get(userId)?.failed_logins).toBe(1);
    expect(store.addressFailures.get('203.0.113.7')).toBe(1);
  });

  it('counts a sign-in of a user without a password yet as a failure', async () => {
    seedUser({ can_resend_set_password_email: true }, { password_hash: undefined });

    expect(await attempt()).toEqual({ ok: false, reason: 'invalid_credentials' });
    expect(store.credentials.get(userId)?.failed_logins).toBe(1);
  });

  it('blocks the user at FSM_LOGIN_MAX_FAILURES consecutive failures, as SYSTEM', async () => {
    vi.stubEnv('FSM_LOGIN_MAX_FAILURES', '3');
    seedUser({}, { failed_logins: 1 });

    await attempt({ password: 'wrong' });
    expect(store.principals.get(userId)?.status).toBe('ACTIVE');
    await attempt({ password: 'wrong' });

    expect(store.principals.get(userId)).toMatchObject({ status: 'BLOCKED', lock_version: 1 });
    expect(store.userUpdates).toHaveLength(1);
    expect(store.userUpdates[0]?.actor).toBe('SYSTEM');
  });

  it('blocks after 10 failures by default', async () => {
    seedUser({}, { failed_logins: 8 });

    await attempt({ password: 'wrong' });
    expect(store.principals.get(userId)?.status).toBe('ACTIVE');
    await attempt({ password: 'wrong' });

    expect(store.principals.get(userId)?.status).toBe('BLOCKED');
  });

  it.each([
    { status: 'BLOCKED' as const, reason: 'blocked' },
    { status: 'INACTIVE' as const, reason: 'inactive' },
  ])('reveals $status only with the right password', async ({ status, reason }) => {
    seedUser({ status }, { failed_logins: 2 });

    const right = await attempt();
    const wrong = await attempt({ password: 'wrong' });

    expect(right).toEqual({ ok: false, reason });
    expect(wrong).toEqual({ ok: false, reason: 'invalid_credentials' });
    expect(store.credentials.get(userId)?.failed_logins).toBe(2);
    expect(store.addressFailures.get('203.0.113.7')).toBe(1);
  });

  it('throttles an address past FSM_LOGIN_ADDRESS_MAX_FAILURES without checking anything', async () => {
    vi.stubEnv('FSM_LOGIN_ADDRESS_MAX_FAILURES', '2');
    vi.stubEnv('FSM_LOGIN_ADDRESS_WINDOW_SECONDS', '60');
    seedUser();
    await attempt({ password: 'wrong-1' });
    await attempt({ password: 'wrong-2' });

    const outcome = await attempt();

    expect(outcome).toMatchObject({ ok: false, reason: 'throttled' });
    expect(outcome.ok === false && outcome.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(outcome.ok === false && outcome.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(store.credentials.get(userId)?.failed_logins).toBe(2);
    expect((await attempt({ address: '198.51.100.1' })).ok).toBe(true);
  });
});

describe('AccountService: findActiveAccount', () => {
  it('finds an ACTIVE user and nothing for other states', async () => {
    seedUser();
    expect(await accountService.findActiveAccount(workspaceId, userId)).toEqual({
      id: userId,
      workspaceId,
      email: 'sam@example.test',
      firstname: 'Sam',
      lastname: 'Sample',
      updatedAt: '2024-01-01T00:00:00.000Z',
    });

    seedUser({ status: 'BLOCKED' });
    expect(await accountService.findActiveAccount(workspaceId, userId)).toBeUndefined();
  });
});

describe('AccountService: set-password links', () => {
  const secret = 'a'.repeat(43);
  const token = `${workspaceId}.${userId}.${secret}`;

  async function seedLink(user: Partial<PrincipalRecord> = {}) {
    // Forge the stored hash the way sendSetPasswordInvitation does (SHA-256, base64url).
    const { createHash } = await import('node:crypto');
    seedUser(
      { can_resend_set_password_email: true, ...user },
      {
        password_hash: undefined,
        failed_logins: 3,
        set_password_token_hash: createHash('sha256').update(secret).digest('base64url'),
        set_password_token_expires_at: new Date(Date.now() + 3600_000).toISOString(),
      },
    );
  }

  it('tells the e-mail of a usable link and nothing for a wrong or malformed one', async () => {
    await seedLink();

    expect(await accountService.inspectSetPasswordToken(token)).toEqual({ email: 'sam@example.test' });
    expect(
      await accountService.inspectSetPasswordToken(`${workspaceId}.${userId}.${'b'.repeat(43)}`),
    ).toBeUndefined();
    expect(await accountService.inspectSetPasswordToken('garbage')).toBeUndefined();
    expect(parseSetPasswordToken(token)?.userId).toBe(userId);
  });

  it('refuses a password under 8 characters without spending the link', async () => {
    await seedLink();

    expect(await accountService.setPasswordWithToken(token, '1234567')).toBe('password_too_short');
    expect(await accountService.inspectSetPasswordToken(token)).toBeDefined();
  });

  it('sets the password, spends the link, clears failures and flips can_resend as SYSTEM', async () => {
    await seedLink();

    expect(await accountService.setPasswordWithToken(token, 'a-good-password')).toBe('ok');

    const credential = store.credentials.get(userId);
    expect(credential).toMatchObject({ failed_logins: 0 });
    expect(credential).not.toHaveProperty('set_password_token_hash');
    expect(store.principals.get(userId)?.can_resend_set_password_email).toBe(false);
    expect(store.userUpdates[0]).toMatchObject({ actor: 'SYSTEM' });
    expect(store.userUpdates[0]?.extra).toHaveLength(1);
    expect(await accountService.setPasswordWithToken(token, 'a-good-password')).toBe('invalid_token');
    expect(await attempt({ password: 'a-good-password' })).toEqual({ ok: true, userId });
  });

  it('writes only the credential when can_resend_set_password_email was already false', async () => {
    await seedLink({ can_resend_set_password_email: false });

    expect(await accountService.setPasswordWithToken(token, 'a-good-password')).toBe('ok');

    expect(store.userUpdates).toEqual([]);
    expect(store.transactions).toHaveLength(1);
  });

  it('lets only one of two concurrent submissions of the same link set a password', async () => {
    await seedLink();

    const outcomes = await Promise.all([
      accountService.setPasswordWithToken(token, 'first-password-1'),
      accountService.setPasswordWithToken(token, 'second-password-2'),
    ]);

    expect(outcomes.sort()).toEqual(['invalid_token', 'ok']);
  });
});
