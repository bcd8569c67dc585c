/**
 * Consent without a consent screen. Every OIDC client of this provider belongs to the
 * workspace its users sign in to (first party), so what a client asks for is granted as asked:
 * the requested OpenID scopes and claims and the requested scopes of the API resource.
 * Scopes do not govern API access anyway (roles and grants do, SPEC.md "Authentication").
 *
 * oidc-provider's `loadExistingGrant` runs on every authorization request once the session has
 * an account; returning a grant that already covers the request means the consent prompt never
 * fires, so the login form stays the only interaction.
 */
import type { GrantInstance, KoaContextWithOIDC } from 'oidc-provider';

/** Claims that need no grant (oidc-provider never prompts for them). */
const ungrantedClaims = new Set(['sub', 'sid', 'auth_time', 'acr', 'amr', 'iss']);

export async function loadFirstPartyGrant(ctx: KoaContextWithOIDC): Promise<GrantInstance | undefined> {
  const { oidc } = ctx;
  const client = oidc.client;
  const accountId = oidc.account?.accountId ?? oidc.session?.accountId;
  if (!client || !accountId || !oidc.session) return undefined;

  const grantId = oidc.result?.consent?.grantId ?? oidc.session.grantIdFor(client.clientId);
  let grant = grantId ? await oidc.provider.Grant.find(grantId) : undefined;
  // A grant of another account (the session changed hands) or client is never reused.
  if (grant && (grant.accountId !== accountId || grant.clientId !== client.clientId)) grant = undefined;
  grant ??= new oidc.provider.Grant({ accountId, clientId: client.clientId });

  let changed = grant.jti === undefined;
  const grantedScopes = new Set(grant.getOIDCScopeEncountered().split(' '));
  const missingScopes = [...oidc.requestParamOIDCScopes].filter((scope) => !grantedScopes.has(scope));
  if (missingScopes.length > 0) {
    grant.addOIDCScope(missingScopes.join(' '));
    changed = true;
  }
  const grantedClaims = new Set(grant.getOIDCClaimsEncountered());
  const missingClaims = [...oidc.requestParamClaims].filter(
    (claim) => !grantedClaims.has(claim) && !ungrantedClaims.has(claim),
  );
  if (missingClaims.length > 0) {
    grant.addOIDCClaims(missingClaims);
    changed = true;
  }
  for (const [indicator, resourceServer] of Object.entries(oidc.resourceServers ?? {})) {
    const granted = new Set(grant.getResourceScopeEncountered(indicator).split(' '));
    const missing = [...oidc.requestParamScopes].filter(
      (scope) => resourceServer.scopes.has(scope) && !granted.has(scope),
    );
    if (missing.length > 0) {
      grant.addResourceScope(indicator, missing.join(' '));
      changed = true;
    }
  }
  if (changed) await grant.save();
  return grant;
}
