/**
 * Keycloak's back-channel logout: POST client_id, client_secret, refresh_token → 204. The
 * client authenticates with client_secret_basic or client_secret_post (exactly one, as
 * oidc-provider requires), the refresh token must be its own, and the token, every token of
 * its grant, the grant and the session are revoked together.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import type { TokenInstance } from 'oidc-provider';
import { isFormPost, readForm, sendJson } from './http-io.ts';
import type { IdentityDirectory } from './identity-directory.ts';

export async function backChannelLogout(
  req: IncomingMessage,
  res: ServerResponse,
  realm: string,
  provider: Provider,
  directory: IdentityDirectory,
): Promise<void> {
  if (!isFormPost(req)) {
    sendJson(res, 400, { error: 'invalid_request', error_description: 'form-encoded body expected' });
    return;
  }
  const form = await readForm(req);
  if (!form) {
    sendJson(res, 400, {
      error: 'invalid_request',
      error_description: 'request body too large or unreadable',
    });
    return;
  }
  for (const name of ['client_id', 'client_secret', 'refresh_token']) {
    if (form.getAll(name).length > 1) {
      sendJson(res, 400, { error: 'invalid_request', error_description: `${name} given more than once` });
      return;
    }
  }

  const credentials = clientCredentials(req.headers.authorization, form);
  if ('error' in credentials) {
    sendJson(res, 400, { error: 'invalid_request', error_description: credentials.error });
    return;
  }
  const record = credentials.clientId ? await directory.findClient(realm, credentials.clientId) : undefined;
  if (!record?.clientSecret || !secretsMatch(record.clientSecret, credentials.clientSecret)) {
    const challenge: Record<string, string> = credentials.viaHeader ? { 'WWW-Authenticate': 'Basic' } : {};
    sendJson(
      res,
      401,
      { error: 'invalid_client', error_description: 'client authentication failed' },
      challenge,
    );
    return;
  }

  const value = form.get('refresh_token');
  if (!value) {
    sendJson(res, 400, { error: 'invalid_request', error_description: 'Missing parameter: refresh_token' });
    return;
  }
  // find() drops unknown, expired and session-less tokens.
  const token = await provider.RefreshToken.find(value);
  if (!token || token.clientId !== record.clientId) {
    sendJson(res, 400, { error: 'invalid_grant', error_description: 'Invalid refresh token' });
    return;
  }
  await endSession(provider, token);
  res.statusCode = 204;
  res.setHeader('Cache-Control', 'no-store');
  res.end();
}

/** Revoke the refresh token, every token of its grant, the grant and the session it belongs to. */
async function endSession(provider: Provider, token: TokenInstance): Promise<void> {
  await token.destroy();
  const { grantId, sessionUid } = token;
  if (grantId) {
    await Promise.all([
      provider.AccessToken.revokeByGrantId(grantId),
      provider.RefreshToken.revokeByGrantId(grantId),
      provider.AuthorizationCode.revokeByGrantId(grantId),
      provider.Grant.find(grantId).then((grant) => grant?.destroy()),
    ]);
  }
  if (sessionUid) {
    const session = await provider.Session.findByUid(sessionUid);
    await session?.destroy();
  }
}

type ClientCredentials = { clientId: string; clientSecret: string; viaHeader: boolean } | { error: string };

/** client_secret_basic or client_secret_post, exactly one of them (as oidc-provider does). */
function clientCredentials(authorization: string | undefined, form: URLSearchParams): ClientCredentials {
  const formId = form.get('client_id') ?? undefined;
  const formSecret = form.get('client_secret') ?? undefined;
  if (authorization !== undefined) {
    if (formSecret !== undefined)
      return { error: 'client authentication must only be provided using one mechanism' };
    const [scheme, encoded, extra] = authorization.split(' ');
    if (scheme?.toLowerCase() !== 'basic' || !encoded || extra !== undefined) {
      return { error: 'invalid authorization header value format' };
    }
    const decoded = Buffer.from(encoded, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon === -1) return { error: 'invalid authorization header value format' };
    let clientId: string;
    let clientSecret: string;
    try {
      // RFC 6749 §2.3.1: both parts are form-encoded before base64.
      clientId = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, '%20'));
      clientSecret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, '%20'));
    } catch {
      return { error: 'client_id and client_secret in the authorization header are not properly encoded' };
    }
    if (formId !== undefined && formId !== clientId) return { error: 'client_id mismatch' };
    return { clientId, clientSecret, viaHeader: true };
  }
  return { clientId: formId ?? '', clientSecret: formSecret ?? '', viaHeader: false };
}

function secretsMatch(expected: string, given: string): boolean {
  // Hash first so the comparison takes the same time whatever the lengths.
  const a = createHash('sha256').update(expected).digest();
  const b = createHash('sha256').update(given).digest();
  return timingSafeEqual(a, b) && given.length > 0;
}
