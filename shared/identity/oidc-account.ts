/**
 * Users as oidc-provider sees them: `findAccount` and the interaction policy around it.
 *
 * The workspace of an account is the workspace of the client in the request: users sign in
 * through clients of their own workspace, and tokens carry the client's workspace as
 * `tenant_id`. `findAccount` answers only while the user is ACTIVE, so every later use of the
 * session or its tokens (authorization with an existing session, code exchange, refresh,
 * userinfo) fails once the user is blocked or deactivated: a refresh answers `invalid_grant`.
 */
import { interactionPolicy, type KoaContextWithOIDC } from 'oidc-provider';
import type { Account, AccountService } from './accounts.ts';

export interface OidcAccount {
  accountId: string;
  claims(): Promise<Record<string, unknown>>;
}

export function accountFinder(accounts: AccountService) {
  return async (ctx: KoaContextWithOIDC, sub: string): Promise<OidcAccount | undefined> => {
    const workspaceId = ctx.oidc?.client?.workspace_id;
    if (typeof workspaceId !== 'string' || !workspaceId || !sub) return undefined;
    const account = await accounts.findActiveAccount(workspaceId, sub);
    if (!account) return undefined;
    return { accountId: account.id, claims: async () => accountClaims(account) };
  };
}

/** The standard claims of a user; oidc-provider keeps those the granted scopes allow. */
export function accountClaims(account: Account): Record<string, unknown> {
  const name = [account.firstname, account.lastname].filter((part) => part).join(' ');
  const updatedAt = Date.parse(account.updatedAt);
  return {
    sub: account.id,
    email: account.email,
    // Addresses become accounts only through an administrator and a mailed set-password link.
    email_verified: true,
    ...(account.firstname ? { given_name: account.firstname } : {}),
    ...(account.lastname ? { family_name: account.lastname } : {}),
    ...(name ? { name } : {}),
    preferred_username: account.email,
    ...(Number.isFinite(updatedAt) ? { updated_at: Math.floor(updatedAt / 1000) } : {}),
  };
}

/**
 * oidc-provider's default policy plus one login check: a session whose account cannot use this
 * client (blocked or deactivated since, or a user of another workspace than the client's, in
 * a realm shared by several workspaces) asks for a new sign-in instead of failing.
 */
export function interactionPolicyWithAccountCheck() {
  const { base, Check } = interactionPolicy;
  const policy = base();
  policy
    .get('login')
    ?.checks.add(
      new Check('account_unavailable', 'the signed-in account cannot use this client', (ctx) =>
        ctx.oidc.session?.accountId && !ctx.oidc.account ? Check.REQUEST_PROMPT : Check.NO_NEED_TO_PROMPT,
      ),
    );
  return policy;
}
