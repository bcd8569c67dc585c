/**
 * The local provider's portal pages (GET and POST /billing-portal/{session_id}), the stand-in
 * for a provider's hosted billing portal. Rules:
 *
 * - The URL carries a 256-bit random token; only its SHA-256 is stored (local-provider.ts), with
 *   a TTL of five minutes. An unknown, expired or already opened token answers the same 404 page.
 * - The URL opens once: the first GET turns the session into a visit of 30 minutes and puts a
 *   second random token, the visit token, into the page's forms. Every action POSTs it back, so
 *   only the page that opened the session can act (and a cross-site form cannot: it lacks it).
 * - Actions change the local provider's customer (payment method, open invoice, standing) and
 *   answer the page again with what happened; POST /api/v2/billing/recheck then reads that.
 * - Pages load nothing, run no script, are never cached, framed or sent as a Referer.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { html, renderMessagePage, renderPage, type SafeHtml } from '../identity/html.ts';
import {
  applyAction,
  changeCustomer,
  type LocalCustomer,
  type LocalSession,
  openSession,
  type PortalAction,
  portalActions,
  readCustomer,
  readSession,
  sha256,
} from './local-provider.ts';

export interface PortalPage {
  status: number;
  html: string;
}

/** Headers of every portal page (lower-case, as the kernel writes them). */
export const portalPageHeaders: Record<string, string> = {
  'cache-control': 'no-store',
  pragma: 'no-cache',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
};

const gone: PortalPage = {
  status: 404,
  html: renderMessagePage(
    'Billing portal',
    'This link is unknown, has expired or was already opened. Ask for a new one (POST /api/v2/billing/portal-sessions).',
    { kind: 'message' },
  ),
};

/** GET: opens the session (once) and shows the customer. */
export async function openPortal(token: string): Promise<PortalPage> {
  const session = await readSession(token);
  if (!session || session.visit_hash) return gone;
  const visitToken = randomBytes(32).toString('base64url');
  const visit = await openSession(token, session, visitToken);
  if (!visit) return gone;
  const customer = await readCustomer(visit.customer_id);
  if (!customer) return gone;
  return { status: 200, html: portalHtml(token, visit, customer, visitToken) };
}

/** POST: one action of the open visit; the form's `visit` must be the page's visit token. */
export async function actInPortal(token: string, form: URLSearchParams): Promise<PortalPage> {
  const session = await readSession(token);
  const visitToken = form.get('visit') ?? '';
  if (!session?.visit_hash || !sameHash(session.visit_hash, sha256(visitToken))) return gone;
  const action = form.get('action') ?? '';
  if (!(portalActions as readonly string[]).includes(action)) {
    const customer = await readCustomer(session.customer_id);
    if (!customer) return gone;
    return {
      status: 400,
      html: portalHtml(token, session, customer, visitToken, { text: 'Unknown action.', ok: false }),
    };
  }
  let outcome = { notice: '', ok: true };
  const customer = await changeCustomer(session.customer_id, (current) => {
    const result = applyAction(current, action as PortalAction);
    outcome = { notice: result.notice, ok: result.ok };
    return result.customer;
  });
  return {
    status: outcome.ok ? 200 : 422,
    html: portalHtml(token, session, customer, visitToken, { text: outcome.notice, ok: outcome.ok }),
  };
}

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function actionForm(token: string, visitToken: string, action: PortalAction, label: string): SafeHtml {
  return html`<form method="post" action="/billing-portal/${token}">
<input type="hidden" name="visit" value="${visitToken}">
<input type="hidden" name="action" value="${action}">
<button type="submit">${label}</button>
</form>`;
}

function portalHtml(
  token: string,
  session: LocalSession,
  customer: LocalCustomer,
  visitToken: string,
  notice?: { text: string; ok: boolean },
): string {
  const { details } = customer;
  const name = details.businessName ?? details.fullName ?? 'No billing name yet';
  const address = [
    details.address.line1,
    details.address.line2,
    [details.address.postalCode, details.address.city].filter(Boolean).join(' '),
    details.address.stateProvince,
    details.address.countryCode,
  ].filter((line): line is string => Boolean(line));
  const method = customer.payment_method
    ? `${customer.payment_method.brand.toUpperCase()} •••• ${customer.payment_method.last4}`
    : 'none';
  const invoice = customer.open_invoice
    ? `${customer.open_invoice.number}: ${customer.open_invoice.amount}, overdue since ${customer.open_invoice.due_at}`
    : 'none';
  const forms =
    session.kind === 'payment_method'
      ? [actionForm(token, visitToken, 'add_payment_method', 'Add a payment method (test card)')]
      : [
          actionForm(token, visitToken, 'add_payment_method', 'Add a payment method (test card)'),
          actionForm(token, visitToken, 'remove_payment_method', 'Remove the payment method'),
          actionForm(token, visitToken, 'pay_invoices', 'Pay open invoices'),
          actionForm(token, visitToken, 'fail_payment', 'Simulate a failed payment'),
        ];
  const title = session.kind === 'payment_method' ? 'Add a payment method' : 'Billing portal';
  return renderPage(
    title,
    html`<h1>${title}</h1>
<p>Local payment provider: nothing here is charged.</p>
${notice ? html`<p class="${notice.ok ? 'notice' : 'message'}" role="status">${notice.text}</p>` : ''}
<dl>
<dt>Customer</dt><dd data-field="customer_id">${customer.id}</dd>
<dt>Billed to</dt><dd>${name}${address.map((line) => html`<br>${line}`)}</dd>
<dt>E-mail</dt><dd>${details.email ?? 'none'}</dd>
<dt>Standing</dt><dd data-field="standing">${customer.standing}</dd>
<dt>Payment method</dt><dd data-field="payment_method">${method}</dd>
<dt>Open invoice</dt><dd data-field="open_invoice">${invoice}</dd>
</dl>
${forms}
${session.return_url ? html`<p><a href="${session.return_url}">Return</a></p>` : ''}`,
  );
}
