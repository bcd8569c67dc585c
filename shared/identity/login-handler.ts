/**
 * `/realms/{realm}/login/{uid}`: the interaction of the authorization-code flow.
 *
 * oidc-provider sends the browser here (interactions.url) when a sign-in is needed, with a
 * signed cookie that names the interaction. The only interaction is the login form: consent is
 * granted without asking (every client is first party, see first-party-grant.ts), so a consent
 * interaction (only with prompt=consent) ends at once on GET.
 *
 * GET renders the form. POST, in order:
 * 1. a form body from our own page: its CSRF token, when sent, is the HMAC of this uid; without
 *    one the request must not be cross-site (csrf.ts `formPostAllowed`); else 403, nothing
 *    looked up;
 * 2. the interaction of the cookie, and it is this uid (else 400: expired or foreign);
 * 3. the client of the interaction, whose workspace the user must belong to;
 * 4. the sign-in check of the AccountService with the client's address (brute-force counters);
 * 5. success ends the interaction (303 back to the provider, which redirects to the client
 *    with a code); a failure shows the form again with its message and status, the e-mail
 *    filled in, the password not.
 * Nothing of the form (password, e-mail, token) is logged.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errors, type InteractionInstance, type Provider } from 'oidc-provider';
import { logger } from '../observability/logger.ts';
import { clientAddress } from './client-address.ts';
import { formPostAllowed } from './csrf.ts';
import { renderMessagePage } from './html.ts';
import { isFormPost, readForm, sendHtml } from './http-io.ts';
import { renderLoginPage, signInFailure } from './login-page.ts';
import type { PageContext } from './page-context.ts';

/** Interaction uids are oidc-provider nanoids. */
const uidPattern = /^[A-Za-z0-9_-]{1,64}$/;

export async function serveLogin(
  req: IncomingMessage,
  res: ServerResponse,
  uid: string,
  page: PageContext,
): Promise<void> {
  if (!uidPattern.test(uid)) {
    sendHtml(res, 404, renderMessagePage('Page not found', 'There is no sign-in at this address.'));
    return;
  }
  if (req.method === 'GET' || req.method === 'HEAD') {
    await showForm(req, res, uid, page);
    return;
  }
  if (req.method === 'POST') {
    await submit(req, res, uid, page);
    return;
  }
  sendHtml(res, 405, renderMessagePage('Method not allowed', 'Use the sign-in form.'), {
    headers: { Allow: 'GET, HEAD, POST' },
  });
}

async function showForm(req: IncomingMessage, res: ServerResponse, uid: string, page: PageContext) {
  const interaction = await currentInteraction(req, res, uid, page.provider);
  if (interaction?.prompt.name === 'consent' && interaction.grantId) {
    // Only when the client asked for it (prompt=consent): the grant already holds what was
    // asked for (first-party-grant.ts), so the consent is given without a screen.
    res.setHeader('Cache-Control', 'no-store');
    await page.provider.interactionFinished(req, res, { consent: { grantId: interaction.grantId } });
    return;
  }
  if (interaction?.prompt.name !== 'login') {
    sendExpired(res);
    return;
  }
  const hint = interaction.params.login_hint;
  sendHtml(
    res,
    200,
    renderLoginPage({
      action: actionOf(page, uid),
      csrfToken: page.forms.tokenFor('login', uid),
      username: typeof hint === 'string' ? hint : undefined,
    }),
    { formTargets: formTargetsOf(interaction) },
  );
}

async function submit(req: IncomingMessage, res: ServerResponse, uid: string, page: PageContext) {
  if (!isFormPost(req)) {
    sendHtml(res, 415, renderMessagePage('Sign-in failed', 'The sign-in form must be sent as a form.'));
    return;
  }
  const form = await readForm(req);
  if (!form) {
    sendHtml(res, 413, renderMessagePage('Sign-in failed', 'The form is too large.'));
    return;
  }
  const csrf = form.get('csrf');
  const allowed = formPostAllowed(req.headers, new URL(page.provider.issuer).origin, {
    given: csrf,
    matches: page.forms.matches('login', uid, csrf),
  });
  if (!allowed) {
    sendHtml(
      res,
      403,
      renderMessagePage(
        'Sign-in refused',
        'This form was not sent from the sign-in page. Go back to the application and sign in again.',
        { kind: 'message' },
      ),
    );
    return;
  }
  const interaction = await currentInteraction(req, res, uid, page.provider);
  if (interaction?.prompt.name !== 'login') {
    sendExpired(res);
    return;
  }
  const clientId = interaction.params.client_id;
  const client =
    typeof clientId === 'string' ? await page.directory.findClient(page.realm, clientId) : undefined;
  if (!client) {
    sendExpired(res);
    return;
  }

  const username = (form.get('username') ?? '').trim();
  const password = form.get('password') ?? '';
  const again = (status: number, message: string, headers: Record<string, string> = {}) =>
    sendHtml(
      res,
      status,
      renderLoginPage({
        action: actionOf(page, uid),
        csrfToken: page.forms.tokenFor('login', uid),
        username,
        message,
      }),
      { formTargets: formTargetsOf(interaction), headers },
    );
  if (!username || !password) {
    again(400, 'Enter your e-mail address and your password.');
    return;
  }

  const outcome = await page.accounts.signIn({
    realm: page.realm,
    workspaceId: client.workspaceId,
    email: username,
    password,
    address: clientAddress(req, page.trustedProxyHops),
  });
  if (!outcome.ok) {
    logger.info('sign-in refused', { realm: page.realm, clientId: client.clientId, reason: outcome.reason });
    const failure = signInFailure(outcome);
    again(failure.status, failure.message, failure.headers);
    return;
  }
  res.setHeader('Cache-Control', 'no-store');
  await page.provider.interactionFinished(
    req,
    res,
    { login: { accountId: outcome.userId, amr: ['pwd'] } },
    { mergeWithLastSubmission: false },
  );
}

/** The interaction named by the request's cookie, when it is the one of this page. */
async function currentInteraction(
  req: IncomingMessage,
  res: ServerResponse,
  uid: string,
  provider: Provider,
): Promise<InteractionInstance | undefined> {
  try {
    const interaction = await provider.interactionDetails(req, res);
    return interaction.uid === uid ? interaction : undefined;
  } catch (error) {
    if (error instanceof errors.SessionNotFound) return undefined;
    throw error;
  }
}

function sendExpired(res: ServerResponse): void {
  sendHtml(
    res,
    400,
    renderMessagePage(
      'Sign-in expired',
      'This sign-in has expired or was started in another browser. Go back to the application and sign in again.',
      { kind: 'message' },
    ),
  );
}

function actionOf(page: PageContext, uid: string): string {
  return `${page.issuerPath}/login/${uid}`;
}

/**
 * The origin of the client's redirect URI: after a successful post the browser follows the
 * redirects to it, and CSP `form-action` applies along that chain.
 */
function formTargetsOf(interaction: InteractionInstance): string[] {
  const redirectUri = interaction.params.redirect_uri;
  const url = typeof redirectUri === 'string' ? URL.parse(redirectUri) : null;
  return url && (url.protocol === 'https:' || url.protocol === 'http:') ? [url.origin] : [];
}
