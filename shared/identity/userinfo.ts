/**
 * `/realms/{realm}/protocol/openid-connect/userinfo` for the access tokens this provider
 * issues. oidc-provider's own userinfo accepts only opaque tokens that are not bound to a
 * resource server, and every access token here is a JWT for the API, so (as Keycloak does) the
 * endpoint takes the API access token:
 *
 * 1. `Authorization: Bearer <access token>` (GET or POST), else 401 with a bare challenge;
 * 2. the token verifies: RS256 with the realm's key, this realm's issuer, the API audience,
 *    not expired, and the access-token profile of ../auth/access-token-profile.ts (else 401
 *    invalid_token);
 * 3. its subject is an ACTIVE user of its `tenant_id` workspace (else 401 invalid_token: a
 *    client-credentials token names a service account, not a user);
 * 4. the claims its `scope` allows: `sub` always, profile and email claims with their scopes.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { JwtRsaVerifier } from 'aws-jwt-verify';
import type { Jwks } from 'aws-jwt-verify/jwk';
import { decomposeUnverifiedJwt } from 'aws-jwt-verify/jwt';
import { assertAccessTokenProfile } from '../auth/access-token-profile.ts';
import type { AccountService } from './accounts.ts';
import { sendJson } from './http-io.ts';
import { accountClaims } from './oidc-account.ts';
import type { JsonWebKey } from './signing-keys.ts';

const scopeClaims: Record<string, string[]> = {
  profile: ['name', 'given_name', 'family_name', 'preferred_username', 'updated_at'],
  email: ['email', 'email_verified'],
};

export interface UserinfoEndpoint {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

export function userinfoEndpoint(options: {
  issuer: string;
  audience: string;
  /** The private signing keys; only their public parts are used. */
  keys: JsonWebKey[];
  accounts: AccountService;
}): UserinfoEndpoint {
  const verifier = JwtRsaVerifier.create({
    issuer: options.issuer,
    audience: options.audience,
    // Never fetched: the keys are handed over below.
    jwksUri: `${options.issuer}/protocol/openid-connect/certs`,
  });
  verifier.cacheJwks({ keys: options.keys.map(publicPart) } as unknown as Jwks);

  const refuse = (res: ServerResponse, description?: string) =>
    sendJson(
      res,
      401,
      description ? { error: 'invalid_token', error_description: description } : { error: 'invalid_request' },
      {
        'WWW-Authenticate': description
          ? `Bearer realm="${options.issuer}", error="invalid_token", error_description="${description}"`
          : `Bearer realm="${options.issuer}"`,
      },
    );

  return {
    async handle(req, res) {
      if (req.method !== 'GET' && req.method !== 'POST') {
        sendJson(
          res,
          405,
          { error: 'invalid_request', error_description: 'use GET or POST' },
          { Allow: 'GET, POST' },
        );
        return;
      }
      const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
      if (!match?.[1]) {
        refuse(res);
        return;
      }
      let payload: Record<string, unknown>;
      try {
        const decomposed = decomposeUnverifiedJwt(match[1]);
        assertAccessTokenProfile(decomposed.header, decomposed.payload);
        payload = (await verifier.verify(match[1])) as Record<string, unknown>;
      } catch {
        refuse(res, 'invalid token provided');
        return;
      }
      const workspaceId = payload.tenant_id;
      const subject = payload.sub;
      const account =
        typeof workspaceId === 'string' && typeof subject === 'string'
          ? await options.accounts.findActiveAccount(workspaceId, subject)
          : undefined;
      if (!account) {
        refuse(res, 'the token names no active user');
        return;
      }
      const scopes = new Set(String(payload.scope ?? '').split(' '));
      const claims = accountClaims(account);
      const allowed = new Set(['sub', ...[...scopes].flatMap((scope) => scopeClaims[scope] ?? [])]);
      sendJson(res, 200, Object.fromEntries(Object.entries(claims).filter(([name]) => allowed.has(name))));
    },
  };
}

function publicPart(key: JsonWebKey): JsonWebKey {
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...rest } = key;
  return rest;
}
