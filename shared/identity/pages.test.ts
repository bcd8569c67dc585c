import { describe, expect, it } from 'vitest';
import { escapeHtml, html, renderMessagePage } from './html.ts';
import { renderLoginPage, signInFailure } from './login-page.ts';
import {
  continueOrigin,
  passwordProblem,
  renderPasswordSetPage,
  renderSetPasswordPage,
} from './set-password-page.ts';

const hostile = `"><script>alert('x')</script>&`;
const escaped = '&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;';

describe('HTML of the provider pages', () => {
  it('escapes every interpolated value and inserts html fragments as they are', () => {
    const inner = html`<b>${hostile}</b>`;

    expect(escapeHtml(hostile)).toBe(escaped);
    expect(html`<p title="${hostile}">${inner}${[hostile, 1]}${undefined}${false}</p>`.value).toBe(
      `<p title="${escaped}"><b>${escaped}</b>${escaped}1</p>`,
    );
  });

  it('renders a whole UTF-8 page with neither scripts nor external assets', () => {
    const page = renderMessagePage('Täst', hostile, {
      link: { href: 'https://a.test/?a=1&b=2', label: 'Go' },
    });

    expect(page).toMatch(/^<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">/);
    expect(page).toContain('<title>Täst</title>');
    expect(page).toContain(escaped);
    expect(page).toContain('<a href="https://a.test/?a=1&amp;b=2">Go</a>');
    expect(page).not.toMatch(/<script|<link|src=/);
  });

  it('keeps a hostile e-mail and message escaped on the login page, and never a password field value', () => {
    const page = renderLoginPage({
      action: '/realms/shared/login/abc',
      csrfToken: 't0k',
      username: hostile,
      message: hostile,
    });

    expect(page).toContain(`value="${escaped}"`);
    expect(page).toContain(`<p class="message" role="alert">${escaped}</p>`);
    expect(page).not.toContain(hostile);
    expect(page).toMatch(
      /<input id="password" name="password" type="password" autocomplete="current-password" required>/,
    );
    expect(page).toContain('<input type="hidden" name="csrf" value="t0k">');
  });

  it('keeps the link token, e-mail and continue origin escaped on the set-password pages', () => {
    const form = renderSetPasswordPage({
      action: '/realms/shared/set-password',
      csrfToken: 'c',
      token: hostile,
      email: hostile,
      continueTo: hostile,
      message: hostile,
    });
    const done = renderPasswordSetPage(hostile, 'https://app.test');

    expect(form).not.toContain(hostile);
    expect(form).toContain(`<input type="hidden" name="token" value="${escaped}">`);
    expect(done).toContain(`You can now sign in with ${escaped}.`);
    expect(done).toContain('<a href="https://app.test">Continue to https://app.test</a>');
  });
});

describe('sign-in failures', () => {
  it.each([
    { reason: 'invalid_credentials' as const, status: 401, message: 'Invalid e-mail or password.' },
    {
      reason: 'blocked' as const,
      status: 403,
      message: 'This account is blocked after too many failed sign-ins. Ask an administrator to unblock it.',
    },
    { reason: 'inactive' as const, status: 403, message: 'This account is deactivated.' },
  ])('answers $reason with $status', ({ reason, status, message }) => {
    expect(signInFailure({ ok: false, reason })).toEqual({ status, message, headers: {} });
  });

  it('answers throttled with 429 and Retry-After in whole seconds', () => {
    expect(signInFailure({ ok: false, reason: 'throttled', retryAfterSeconds: 29.2 })).toEqual({
      status: 429,
      message: 'Too many failed sign-ins from your network. Try again in 30 seconds.',
      headers: { 'Retry-After': '30' },
    });
  });
});

describe('set-password rules of the page', () => {
  it.each([
    { password: 'short', repeated: 'short', problem: 'The password must have at least 8 characters.' },
    { password: 'long-enough', repeated: 'long-enougH', problem: 'The two passwords do not match.' },
    { password: 'long-enough', repeated: 'long-enough', problem: undefined },
  ])('finds $problem for $password / $repeated', ({ password, repeated, problem }) => {
    expect(passwordProblem(password, repeated)).toBe(problem);
  });

  it.each([
    { value: 'https://app.acme.test/path?q=1', origin: 'https://app.acme.test' },
    { value: 'http://localhost:5173', origin: 'http://localhost:5173' },
    { value: 'javascript:alert(1)', origin: undefined },
    { value: 'data:text/html,x', origin: undefined },
    { value: 'not a url', origin: undefined },
    { value: null, origin: undefined },
  ])('offers $origin as the way back for $value', ({ value, origin }) => {
    expect(continueOrigin(value)).toBe(origin);
  });
});
