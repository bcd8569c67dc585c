/**
 * `/realms/{realm}/set-password?token=…&continue=<origin>`: the page a set-password e-mail
 * links to.
 *
 * GET shows the form while the link is usable (AccountService.inspectSetPasswordToken), else
 * 410 "link invalid or used" (400 when the link carries no token at all). GET never spends the
 * link: mail scanners that fetch links do no harm. POST (form: csrf, token, password,
 * password_confirm, continue):
 * 1. the CSRF token, when sent, must be the HMAC of the link token; without one the request must
 *    not be cross-site (csrf.ts `formPostAllowed`); else 403;
 * 2. a too short or unrepeated password shows the form again with a message (422);
 * 3. AccountService.setPasswordWithToken sets it and spends the link; an unusable link is 410;
 * 4. the confirmation page offers a link to `continue` (an http(s) origin) when the link had one.
 * The link token is never logged: request paths are logged without their query.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { formPostAllowed } from './csrf.ts';
import { renderMessagePage } from './html.ts';
import { isFormPost, readForm, sendHtml } from './http-io.ts';
import type { PageContext } from './page-context.ts';
import {
  continueOrigin,
  passwordProblem,
  passwordTooShort,
  renderPasswordSetPage,
  renderSetPasswordPage,
  renderUnusableLinkPage,
} from './set-password-page.ts';

/** Link tokens are `<uuid>.<uuid>.<secret>`; anything much longer is not one. */
const MAX_TOKEN_LENGTH = 256;

export async function serveSetPassword(
  req: IncomingMessage,
  res: ServerResponse,
  page: PageContext,
): Promise<void> {
  if (req.method === 'GET' || req.method === 'HEAD') {
    await showForm(req, res, page);
    return;
  }
  if (req.method === 'POST') {
    await submit(req, res, page);
    return;
  }
  sendHtml(res, 405, renderMessagePage('Method not allowed', 'Use the set-password form.'), {
    headers: { Allow: 'GET, HEAD, POST' },
  });
}

async function showForm(req: IncomingMessage, res: ServerResponse, page: PageContext): Promise<void> {
  const query = new URL(req.url ?? '/', 'http://localhost').searchParams;
  const token = query.get('token') ?? '';
  if (!token) {
    sendHtml(res, 400, renderUnusableLinkPage());
    return;
  }
  const pending =
    token.length <= MAX_TOKEN_LENGTH ? await page.accounts.inspectSetPasswordToken(token) : undefined;
  if (!pending) {
    sendHtml(res, 410, renderUnusableLinkPage());
    return;
  }
  sendHtml(
    res,
    200,
    renderSetPasswordPage({
      action: actionOf(page),
      csrfToken: page.forms.tokenFor('set-password', token),
      token,
      email: pending.email,
      continueTo: continueOrigin(query.get('continue')),
    }),
  );
}

async function submit(req: IncomingMessage, res: ServerResponse, page: PageContext): Promise<void> {
  if (!isFormPost(req)) {
    sendHtml(res, 415, renderMessagePage('Password not set', 'The form must be sent as a form.'));
    return;
  }
  const form = await readForm(req);
  if (!form) {
    sendHtml(res, 413, renderMessagePage('Password not set', 'The form is too large.'));
    return;
  }
  const token = form.get('token') ?? '';
  if (
    !token ||
    token.length > MAX_TOKEN_LENGTH ||
    !formPostAllowed(req.headers, new URL(page.provider.issuer).origin, {
      given: form.get('csrf'),
      matches: page.forms.matches('set-password', token, form.get('csrf')),
    })
  ) {
    sendHtml(
      res,
      403,
      renderMessagePage(
        'Password not set',
        'This form was not sent from the set-password page. Open the link from your e-mail again.',
        { kind: 'message' },
      ),
    );
    return;
  }
  const pending = await page.accounts.inspectSetPasswordToken(token);
  if (!pending) {
    sendHtml(res, 410, renderUnusableLinkPage());
    return;
  }
  const continueTo = continueOrigin(form.get('continue'));
  const password = form.get('password') ?? '';
  const again = (message: string) =>
    sendHtml(
      res,
      422,
      renderSetPasswordPage({
        action: actionOf(page),
        csrfToken: page.forms.tokenFor('set-password', token),
        token,
        email: pending.email,
        continueTo,
        message,
      }),
    );
  const problem = passwordProblem(password, form.get('password_confirm') ?? '');
  if (problem) {
    again(problem);
    return;
  }

  const outcome = await page.accounts.setPasswordWithToken(token, password);
  switch (outcome) {
    case 'ok':
      sendHtml(res, 200, renderPasswordSetPage(pending.email, continueTo));
      return;
    case 'password_too_short':
      again(passwordTooShort);
      return;
    case 'invalid_token':
      sendHtml(res, 410, renderUnusableLinkPage());
      return;
    default: {
      const unmapped: never = outcome;
      throw new Error(`unmapped set-password outcome ${String(unmapped)}`);
    }
  }
}

function actionOf(page: PageContext): string {
  return `${page.issuerPath}/set-password`;
}
