/** Billing: parse, call the domain, respond. */
import { usePaymentProvider } from '../../shared/billing/payment-provider.ts';
import * as billing from '../../shared/domain/billing/billing.service.ts';
import { bodyText, header } from '../../shared/http/api-gateway.ts';
import { createGroupHandler } from '../../shared/http/group-handler.ts';
import { ProblemError } from '../../shared/http/problem.ts';
import { billingRoutes } from '../../shared/routes/groups/billing.routes.ts';
import { chosenPaymentProvider, providerChoice } from './payment-provider.ts';

usePaymentProvider(chosenPaymentProvider);

/** The local provider's pages exist only where it is the provider. */
async function localPortal() {
  if (providerChoice() !== 'local') {
    throw new ProblemError('not-found', { detail: 'This deployment bills with another payment provider.' });
  }
  return import('../../shared/billing/local-portal.ts');
}

export const handler = createGroupHandler(billingRoutes, {
  'billing.profile.get': async ({ ctx }) => ({ body: await billing.getBillingProfile(ctx) }),
  'billing.profile.update': async ({ ctx, body }) => ({
    body: await billing.updateBillingProfile(ctx, body),
  }),
  'billing.portal-sessions.create': async ({ ctx, body }) => {
    const session = await billing.createBillingSession(ctx, 'portal', body);
    return { body: session, headers: { location: session.url } };
  },
  'billing.payment-method-sessions.create': async ({ ctx, body }) => {
    const session = await billing.createBillingSession(ctx, 'payment_method', body);
    return { body: session, headers: { location: session.url } };
  },
  'billing.recheck': async ({ ctx }) => ({ body: await billing.recheckBilling(ctx) }),
  'billing.portal-page.get': async ({ params }) => {
    const portal = await localPortal();
    const page = await portal.openPortal(params.session_id);
    return {
      status: page.status,
      body: page.html,
      contentType: 'text/html; charset=utf-8',
      headers: portal.portalPageHeaders,
    };
  },
  'billing.portal-page.act': async ({ params, event }) => {
    const portal = await localPortal();
    const mediaType = (header(event, 'content-type') ?? '').split(';')[0]?.trim().toLowerCase();
    if (mediaType !== 'application/x-www-form-urlencoded') {
      throw new ProblemError('unsupported-media-type', {
        detail: 'Send the form as application/x-www-form-urlencoded.',
        headers: { 'accept-post': 'application/x-www-form-urlencoded' },
      });
    }
    const page = await portal.actInPortal(params.session_id, new URLSearchParams(bodyText(event) ?? ''));
    return {
      status: page.status,
      body: page.html,
      contentType: 'text/html; charset=utf-8',
      headers: portal.portalPageHeaders,
    };
  },
});
