/**
 * The pages behind a set-password link: the form (new password and its repetition), the
 * confirmation, and the page of an unusable link. The link token travels in a hidden field,
 * so the form posts to the bare path and the token is not repeated in another URL.
 */
import { html, renderMessagePage, renderPage } from './html.ts';

export const MIN_PASSWORD_LENGTH = 8;

export interface SetPasswordForm {
  action: string;
  csrfToken: string;
  /** The link token (`token` query parameter of the e-mailed link). */
  token: string;
  /** The account's e-mail, shown so the user knows which account the link is for. */
  email: string;
  /** An http(s) origin to continue to afterwards (`continue` of the link). */
  continueTo?: string | undefined;
  message?: string | undefined;
}

export function renderSetPasswordPage(form: SetPasswordForm): string {
  const message = form.message ? html`<p class="message" role="alert">${form.message}</p>` : '';
  const continueField = form.continueTo
    ? html`<input type="hidden" name="continue" value="${form.continueTo}">`
    : '';
  return renderPage(
    'Set your password',
    html`<h1>Set your password</h1>
<p>For ${form.email}</p>
${message}
<form method="post" action="${form.action}" novalidate>
<input type="hidden" name="csrf" value="${form.csrfToken}">
<input type="hidden" name="token" value="${form.token}">
${continueField}
<input name="username" type="email" autocomplete="username" value="${form.email}" readonly hidden>
<label for="password">New password</label>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="${MIN_PASSWORD_LENGTH}" required autofocus>
<label for="password_confirm">Repeat the new password</label>
<input id="password_confirm" name="password_confirm" type="password" autocomplete="new-password" minlength="${MIN_PASSWORD_LENGTH}" required>
<button type="submit">Set password</button>
</form>`,
  );
}

export function renderPasswordSetPage(email: string, continueTo: string | undefined): string {
  return renderMessagePage('Your password is set', `You can now sign in with ${email}.`, {
    kind: 'notice',
    ...(continueTo ? { link: { href: continueTo, label: `Continue to ${continueTo}` } } : {}),
  });
}

export function renderUnusableLinkPage(): string {
  return renderMessagePage(
    'Link invalid or used',
    'This set-password link is invalid, has expired or has already been used. Ask an administrator to send you a new one.',
    { kind: 'message' },
  );
}

export const passwordTooShort = `The password must have at least ${MIN_PASSWORD_LENGTH} characters.`;

/** What is wrong with the new password, or undefined when the form may be submitted. */
export function passwordProblem(password: string, repeated: string): string | undefined {
  if (password.length < MIN_PASSWORD_LENGTH) return passwordTooShort;
  if (password !== repeated) return 'The two passwords do not match.';
  return undefined;
}

/** Only an http(s) origin is offered as the way back; anything else is dropped. */
export function continueOrigin(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  const url = URL.parse(value);
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) return undefined;
  return url.origin;
}
