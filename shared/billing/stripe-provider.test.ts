/**
 * The Stripe adapter against the real `stripe` client with a fake transport (its `httpClient`
 * option): what it sends to Stripe, how it reads the answers, and how Stripe's errors become the
 * port's closed codes. No network.
 */
import { GetSecretValueCommand } from '@aws-sdk/client-secrets-manager';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { PaymentProviderError } from './payment-provider.ts';
import {
  customerFields,
  type StripeHttpClient,
  secretKeyOf,
  stripeProvider,
  stripeProviderFromSecret,
} from './stripe-provider.ts';

interface SentRequest {
  method: string;
  path: string;
  params: URLSearchParams;
  headers: Record<string, unknown>;
}

type Answer = { status: number; body: unknown } | Error;

/** A transport that records each request and answers from a script, in order. */
function fakeTransport(answers: Answer[]) {
  const sent: SentRequest[] = [];
  const client: StripeHttpClient = {
    getClientName: () => 'fake',
    makeRequest: async (_host, _port, path, method, headers, requestData) => {
      const [pathname = '', query = ''] = path.split('?');
      sent.push({
        method,
        path: pathname,
        params: new URLSearchParams(requestData || query),
        headers: headers as Record<string, unknown>,
      });
      const answer = answers.shift();
      if (!answer) throw new Error(`no scripted answer for ${method} ${path}`);
      if (answer instanceof Error) throw answer;
      const text = JSON.stringify(answer.body);
      return {
        getStatusCode: () => answer.status,
        getHeaders: () => ({ 'request-id': 'req_test' }),
        getRawResponse: () => ({}),
        toStream: () => {
          throw new Error('not streamed');
        },
        toJSON: async () => JSON.parse(text),
      };
    },
  };
  return { client, sent };
}

function providerWith(answers: Answer[]) {
  const transport = fakeTransport(answers);
  const stripe = new Stripe('sk_test_fake', { httpClient: transport.client, maxNetworkRetries: 0 });
  return { provider: stripeProvider(stripe, { defaultReturnUrl: 'https://api.example.test' }), ...transport };
}

const details = {
  workspaceId: 'ws-1',
  businessName: 'Acme GmbH',
  fullName: 'Olga Owner',
  vatNumber: 'DE123456789',
  email: 'invoices@acme.example',
  address: { line1: 'Main St 1', city: 'Berlin', postalCode: '10117', countryCode: 'DE' },
};

const customer = (fields: Record<string, unknown> = {}) => ({
  id: 'cus_123',
  object: 'customer',
  delinquent: false,
  default_source: null,
  invoice_settings: { default_payment_method: null },
  ...fields,
});

const stripeError = (status: number, type: string, code?: string) => ({
  status,
  body: { error: { type, message: `${type} happened`, ...(code ? { code } : {}) } },
});

describe('Stripe adapter', () => {
  describe('createCustomer', () => {
    it('creates the customer from the details, with an idempotency key of the workspace', async () => {
      // Prepare
      const { provider, sent } = providerWith([{ status: 200, body: customer() }]);

      // Act
      const id = await provider.createCustomer(details);

      // Assess
      expect(id).toBe('cus_123');
      const [request] = sent;
      expect(request?.method).toBe('POST');
      expect(request?.path).toBe('/v1/customers');
      expect(Object.fromEntries(request?.params ?? [])).toEqual({
        name: 'Acme GmbH',
        business_name: 'Acme GmbH',
        individual_name: 'Olga Owner',
        email: 'invoices@acme.example',
        'address[line1]': 'Main St 1',
        'address[city]': 'Berlin',
        'address[postal_code]': '10117',
        'address[country]': 'DE',
        'metadata[fsm_workspace_id]': 'ws-1',
        'metadata[vat_number]': 'DE123456789',
      });
      expect(String(request?.headers['Idempotency-Key'])).toMatch(/^fsm-customer-ws-1-[0-9a-f]{16}$/);
    });
  });

  describe('updateCustomer', () => {
    it('sends absent fields empty, so Stripe clears them', async () => {
      // Prepare
      const { provider, sent } = providerWith([{ status: 200, body: customer() }]);

      // Act
      await provider.updateCustomer('cus_123', {
        workspaceId: 'ws-1',
        fullName: 'Olga Owner',
        address: { countryCode: 'DE' },
      });

      // Assess
      const [request] = sent;
      expect(request?.path).toBe('/v1/customers/cus_123');
      expect(request?.params.get('name')).toBe('Olga Owner');
      expect(request?.params.get('business_name')).toBe('');
      expect(request?.params.get('email')).toBe('');
      expect(request?.params.get('address[line1]')).toBe('');
      expect(request?.params.get('address[country]')).toBe('DE');
      expect(request?.params.get('metadata[vat_number]')).toBe('');
    });
  });

  describe('createSession', () => {
    it.each([
      { kind: 'portal' as const, flow: null },
      { kind: 'payment_method' as const, flow: 'payment_method_update' },
    ])('opens a customer-portal session for $kind', async ({ kind, flow }) => {
      // Prepare
      const { provider, sent } = providerWith([
        {
          status: 200,
          body: {
            id: 'bps_1',
            object: 'billing_portal.session',
            created: 1_780_000_000,
            url: 'https://billing.stripe.com/p/session/test_1',
          },
        },
      ]);

      // Act
      const session = await provider.createSession('cus_123', kind, undefined);

      // Assess
      expect(session).toEqual({
        url: 'https://billing.stripe.com/p/session/test_1',
        expiresAt: new Date((1_780_000_000 + 300) * 1000).toISOString(),
      });
      expect(sent[0]?.path).toBe('/v1/billing_portal/sessions');
      expect(sent[0]?.params.get('customer')).toBe('cus_123');
      expect(sent[0]?.params.get('return_url')).toBe('https://api.example.test');
      expect(sent[0]?.params.get('flow_data[type]')).toBe(flow);
    });
  });

  describe('checkStanding', () => {
    it.each([
      {
        title: 'a delinquent customer is PAST_DUE',
        fields: { delinquent: true },
        standing: 'PAST_DUE',
        card: false,
      },
      {
        title: 'a customer with a default payment method is in good standing',
        fields: { invoice_settings: { default_payment_method: 'pm_1' } },
        standing: 'GOOD_STANDING',
        card: true,
      },
      {
        title: 'a default source counts as a payment method',
        fields: { default_source: 'card_1' },
        standing: 'GOOD_STANDING',
        card: true,
      },
    ])('$title', async ({ fields, standing, card }) => {
      // Prepare
      const { provider, sent } = providerWith([{ status: 200, body: customer(fields) }]);

      // Act
      const result = await provider.checkStanding('cus_123');

      // Assess
      expect(result).toEqual({ standing, hasPaymentMethod: card });
      expect(sent[0]).toMatchObject({ method: 'GET', path: '/v1/customers/cus_123' });
    });

    it('reports a deleted customer as customer-missing', async () => {
      const { provider } = providerWith([
        { status: 200, body: { id: 'cus_123', object: 'customer', deleted: true } },
      ]);

      await expect(provider.checkStanding('cus_123')).rejects.toMatchObject({ code: 'customer-missing' });
    });
  });

  describe('errors', () => {
    it.each([
      { title: 'a 500 of Stripe', answer: stripeError(500, 'api_error'), code: 'unavailable' },
      { title: 'a rate limit', answer: stripeError(429, 'rate_limit_error'), code: 'unavailable' },
      { title: 'a connection failure', answer: new Error('socket hang up'), code: 'unavailable' },
      {
        title: 'an unknown customer',
        answer: stripeError(404, 'invalid_request_error', 'resource_missing'),
        code: 'customer-missing',
      },
      {
        title: 'a refused value',
        answer: stripeError(400, 'invalid_request_error', 'parameter_invalid_string'),
        code: 'rejected',
      },
      { title: 'a wrong key', answer: stripeError(401, 'invalid_request_error'), code: 'rejected' },
    ])('turns $title into $code', async ({ answer, code }) => {
      // Prepare
      const { provider } = providerWith([answer]);

      // Act
      const failure = await provider.updateCustomer('cus_123', details).catch((error: unknown) => error);

      // Assess
      expect(failure).toBeInstanceOf(PaymentProviderError);
      expect(failure).toMatchObject({ code });
    });
  });

  describe('customerFields', () => {
    it('sends only the values it has when creating', () => {
      expect(customerFields({ workspaceId: 'ws-1', address: {} }, false)).toEqual({
        address: {},
        metadata: { fsm_workspace_id: 'ws-1' },
      });
    });
  });

  describe('secret', () => {
    it.each([
      { secret: 'sk_live_abc', key: 'sk_live_abc' },
      { secret: ' sk_test_abc\n', key: 'sk_test_abc' },
      { secret: '{"secret_key": "sk_live_json"}', key: 'sk_live_json' },
      { secret: '{"api_key": "sk_live_api"}', key: 'sk_live_api' },
    ])('reads the key of $secret', ({ secret, key }) => {
      expect(secretKeyOf(secret)).toBe(key);
    });

    it.each([undefined, '', '{}', '{"secret_key": ""}'])('refuses a secret without a key (%s)', (secret) => {
      expect(() => secretKeyOf(secret)).toThrow(/no API key/);
    });

    it('builds the adapter with the key of the secret it names', async () => {
      // Prepare
      const asked: unknown[] = [];
      const secrets = {
        send: async (command: unknown) => {
          asked.push((command as GetSecretValueCommand).input);
          return { SecretString: 'sk_test_from_secret' };
        },
      };
      const transport = fakeTransport([{ status: 200, body: customer() }]);

      // Act
      const provider = await stripeProviderFromSecret(
        'arn:aws:secretsmanager:eu-central-1:1:secret:stripe',
        'eu-central-1',
        {
          secrets: secrets as never,
          httpClient: transport.client,
          defaultReturnUrl: 'https://api.example.test',
        },
      );
      await provider.checkStanding('cus_123');

      // Assess
      expect(asked).toEqual([{ SecretId: 'arn:aws:secretsmanager:eu-central-1:1:secret:stripe' }]);
      expect(String(transport.sent[0]?.headers.Authorization)).toBe('Bearer sk_test_from_secret');
      expect(GetSecretValueCommand).toBeDefined();
    });
  });
});
