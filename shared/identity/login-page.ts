/**
 * The login page of the authorization-code flow: a server-rendered form posting `username`
 * and `password` (Keycloak's field names) plus a CSRF token, and what a failed sign-in shows.
 * The e-mail address stays filled in after a failure; the password never does.
 */
import type { SignInOutcome } from './accounts.ts';
import { html, renderPage } from './html.ts';

export interface LoginForm {
  /** Where the form posts: the page's own path. */
  action: string;
  csrfToken: string;
  username?: string | undefined;
  message?: string | undefined;
}

export function renderLoginPage(form: LoginForm): string {
  const message = form.message ? html`<p class="message" role="alert">${form.message}</p>` : '';
  return renderPage(
    'Sign in',
    html`<h1>Sign in</h1>
${message}
<form method="post" action="${form.action}" novalidate>
<input type="hidden" name="csrf" value="${form.csrfToken}">
<label for="username">E-mail</label>
<input id="username" name="username" type="email" autocomplete="username" autocapitalize="none" spellcheck="false" required autofocus value="${form.username ?? ''}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>`,
  );
}

type Failure = Extract<SignInOutcome, { ok: false }>;

/** The status and message a failed sign-in answers with. */
export function signInFailure(outcome: Failure): {
  status: number;
  message: string;
  headers: Record<string, string>;
} {
  const reason = outcome.reason;
  switch (reason) {
    case 'invalid_credentials':
      return { status: 401, message: 'Invalid e-mail or password.', headers: {} };
    case 'blocked':
      return {
        status: 403,
        message:
          'This account is blocked after too many failed sign-ins. Ask an administrator to unblock it.',
        headers: {},
      };
    case 'inactive':
      return { status: 403, message: 'This account is deactivated.', headers: {} };
    case 'throttled': {
      const seconds = Math.max(1, Math.ceil(outcome.retryAfterSeconds ?? 60));
      return {
        status: 429,
        message: `Too many failed sign-ins from your network. Try again in ${waitingTime(seconds)}.`,
        headers: { 'Retry-After': String(seconds) },
      };
    }
    default: {
      const unmapped: never = reason;
      throw new Error(`unmapped sign-in failure ${String(unmapped)}`);
    }
  }
}

function waitingTime(seconds: number): string {
  if (seconds < 90) return `${seconds} seconds`;
  return `${Math.ceil(seconds / 60)} minutes`;
}
