/**
 * Billing over HTTP: the billing profile's rules (SPEC.md "Billing profile"), who may touch
 * billing, the local payment provider's portal (driven as a browser would: GET the page, POST its
 * forms), and the recheck that sets and lifts the billing lock, with the workspace-state rules:
 * a billing-locked workspace answers 402 and a deactivated one 403 everywhere except the
 * portal-session, payment-method-session and recheck operations.
 *
 * Each scenario runs in a workspace of its own, created through the admin plane, so no other
 * test file sees its profile or its state; the seeded Acme workspace serves the role checks.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { adminToken, clientCredentialsToken } from '../support/admin.ts';
import { baseUrl, call, eventually, problemType, tokenFor } from '../support/api.ts';

let admin: string;

beforeAll(async () => {
  admin = await adminToken();
});

interface Workspace {
  id: string;
  /** A client-credentials token of an admin client of the workspace. */
  token: string;
}

async function newWorkspace(): Promise<Workspace> {
  const created = await call('POST', '/admin-v1/workspaces', {
    token: admin,
    body: {
      name: `Billing ${randomUUID().slice(0, 8)}`,
      owner: {
        email: `owner-${randomUUID().slice(0, 8)}@billing.test`,
        firstname: 'Bea',
        lastname: 'Biller',
      },
    },
  });
  expect(created.status).toBe(201);
  const client = await call('POST', `/admin-v1/workspaces/${created.body.id}/clients`, {
    token: admin,
    body: { roles: ['admin'] },
  });
  expect(client.status).toBe(201);
  const token = await clientCredentialsToken(
    created.body.realm,
    client.body.client_id,
    client.body.client_secret,
  );
  return { id: created.body.id, token };
}

async function adminAction(workspace: Workspace, action: string) {
  const response = await call('POST', `/admin-v1/workspaces/${workspace.id}/${action}`, { token: admin });
  expect(response.status).toBe(200);
  return response.body;
}

const profilePath = '/api/v2/billing/profile';

const complete = {
  billing_full_name: 'Bea Biller',
  billing_business_name: 'Biller Services GmbH',
  billing_vat_number: 'DE123456789',
  billing_country_code: 'DE',
  billing_email: 'invoices@biller.test',
  billing_address_line1: 'Friedrichstraße 12',
  billing_address_line2: 'Hinterhaus',
  billing_city: 'Berlin',
  billing_postal_code: '10117',
  billing_state_province: 'Berlin',
};

async function withProfile(body: Record<string, unknown> = complete) {
  const workspace = await newWorkspace();
  const created = await call('PATCH', profilePath, { token: workspace.token, body });
  expect(created.status).toBe(200);
  return { workspace, profile: created.body };
}

/** A portal page as a browser gets it, and its forms' visit token. */
async function openPage(url: string) {
  const response = await fetch(url);
  const html = await response.text();
  const visit = /name="visit" value="([^"]+)"/.exec(html)?.[1];
  return { status: response.status, html, visit, headers: response.headers };
}

async function submit(url: string, visit: string | undefined, action: string) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ visit: visit ?? '', action }),
  });
  return { status: response.status, html: await response.text() };
}

const field = (html: string, name: string) => new RegExp(`data-field="${name}">([^<]*)<`).exec(html)?.[1];

async function session(workspace: Workspace, kind: 'portal-sessions' | 'payment-method-sessions') {
  const response = await call('POST', `/api/v2/billing/${kind}`, { token: workspace.token });
  expect(response.status).toBe(201);
  return response.body.url as string;
}

/** Opens a portal session and runs the actions on its page, in order. */
async function inPortal(workspace: Workspace, ...actions: string[]) {
  const page = await openPage(await session(workspace, 'portal-sessions'));
  expect(page.status).toBe(200);
  const url = /action="([^"]+)"/.exec(page.html)?.[1] ?? '';
  let last = page;
  for (const action of actions) {
    const result = await submit(`${baseUrl()}${url}`, page.visit, action);
    last = { ...last, ...result };
  }
  return last;
}

const recheck = (workspace: Workspace) => call('POST', '/api/v2/billing/recheck', { token: workspace.token });

describe('Billing profile: reading and creating', () => {
  it('answers the empty profile at lock_version 0 before the first PATCH', async () => {
    const workspace = await newWorkspace();

    const response = await call('GET', profilePath, { token: workspace.token });

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      missing_for_invoicing: [
        'billing_full_name',
        'billing_business_name',
        'billing_country_code',
        'billing_email',
        'billing_address_line1',
        'billing_city',
        'billing_postal_code',
      ],
      lock_version: 0,
    });
  });

  it('creates the profile with its first PATCH at lock_version 1, ignoring the lock_version sent', async () => {
    const workspace = await newWorkspace();

    const response = await call('PATCH', profilePath, {
      token: workspace.token,
      body: { ...complete, billing_country_code: 'de', lock_version: 42 },
    });

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      ...complete,
      missing_for_invoicing: [],
      created_at: expect.any(String),
      updated_at: response.body.created_at,
      lock_version: 1,
    });
    const read = await call('GET', profilePath, { token: workspace.token });
    expect(read.body).toEqual(response.body);
  });

  it('creates a partial profile and names what invoicing still needs', async () => {
    const { profile } = await withProfile({ billing_email: 'Billing@Example.TEST' });

    expect(profile).toMatchObject({
      billing_email: 'billing@example.test',
      missing_for_invoicing: [
        'billing_full_name',
        'billing_business_name',
        'billing_country_code',
        'billing_address_line1',
        'billing_city',
        'billing_postal_code',
      ],
      lock_version: 1,
    });
  });

  it('records billing_profile.created and .updated in the audit log, with the previous values', async () => {
    const { workspace } = await withProfile();
    await call('PATCH', profilePath, { token: workspace.token, body: { billing_city: 'Potsdam' } });

    const entries = await eventually(async () => {
      const response = await call('GET', '/api/v2/audit-logs?size=100', { token: workspace.token });
      const found = (response.body.items as Array<Record<string, any>>).filter(
        (entry) => entry.resource?.type === 'billing_profile',
      );
      expect(found).toHaveLength(2);
      return found;
    });

    expect(entries.map((entry) => entry.event_type)).toEqual([
      'billing_profile.updated',
      'billing_profile.created',
    ]);
    expect(entries[0]?.resource.id).toBe(workspace.id);
  });
});

describe('Billing profile: lock_version', () => {
  it('answers 409 for a stale lock_version and changes nothing', async () => {
    const { workspace } = await withProfile();
    const first = await call('PATCH', profilePath, {
      token: workspace.token,
      body: { billing_city: 'Potsdam', lock_version: 1 },
    });
    expect(first.status).toBe(200);
    expect(first.body.lock_version).toBe(2);

    const stale = await call('PATCH', profilePath, {
      token: workspace.token,
      body: { billing_city: 'Hamburg', lock_version: 1 },
    });

    expect(stale.status).toBe(409);
    expect(stale.body.type).toEqual(problemType('resource-conflict'));
    const read = await call('GET', profilePath, { token: workspace.token });
    expect(read.body).toMatchObject({ billing_city: 'Potsdam', lock_version: 2 });
  });

  it('writes last-write-wins without lock_version, and moves lock_version for a PATCH that changes nothing, as for any write', async () => {
    const { workspace } = await withProfile();

    const changed = await call('PATCH', profilePath, {
      token: workspace.token,
      body: { billing_city: 'Bonn' },
    });
    const same = await call('PATCH', profilePath, {
      token: workspace.token,
      body: { billing_city: 'Bonn', billing_country_code: 'de', lock_version: 2 },
    });
    const stale = await call('PATCH', profilePath, {
      token: workspace.token,
      body: { billing_city: 'Bonn', lock_version: 2 },
    });

    expect(changed.body.lock_version).toBe(2);
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ billing_city: 'Bonn', lock_version: 3 });
    expect(Date.parse(same.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(changed.body.updated_at));
    expect(stale.status).toBe(409);
    const entries = await eventually(async () => {
      const response = await call('GET', '/api/v2/audit-logs?size=100', { token: workspace.token });
      const found = (response.body.items as Array<Record<string, any>>).filter(
        (entry) => entry.event_type === 'billing_profile.updated',
      );
      expect(found).toHaveLength(2);
      return found;
    });
    // The newest first: the write that changed nothing names no previous value.
    expect(entries.map((entry) => entry.data.previous_attributes)).toEqual([{}, { billing_city: 'Berlin' }]);
  });

  it('accepts application/json as an alias and refuses other media types', async () => {
    const { workspace } = await withProfile();

    const json = await call('PATCH', profilePath, {
      token: workspace.token,
      body: { billing_city: 'Köln' },
      contentType: 'application/json',
    });
    const text = await call('PATCH', profilePath, {
      token: workspace.token,
      raw: 'billing_city=Köln',
      contentType: 'text/plain',
    });

    expect(json.status).toBe(200);
    expect(json.body.billing_city).toBe('Köln');
    expect(text.status).toBe(415);
  });
});

describe('Billing profile: null, blank and invalid values', () => {
  it.each([
    'billing_country_code',
    'billing_email',
    'billing_address_line1',
    'billing_city',
    'billing_postal_code',
  ])('refuses null on %s (required for invoicing) with 422 field-required at its pointer', async (name) => {
    const { workspace } = await withProfile();

    const response = await call('PATCH', profilePath, { token: workspace.token, body: { [name]: null } });

    expect(response.status).toBe(422);
    expect(response.body.type).toEqual(problemType('field-required'));
    expect(response.body.errors).toEqual([
      expect.objectContaining({ type: problemType('field-required'), pointer: `#/${name}` }),
    ]);
  });

  it.each(['billing_vat_number', 'billing_address_line2', 'billing_state_province'])(
    'clears %s with null; the cleared field is absent, never null',
    async (name) => {
      const { workspace } = await withProfile();

      const response = await call('PATCH', profilePath, { token: workspace.token, body: { [name]: null } });

      expect(response.status).toBe(200);
      expect(response.body).not.toHaveProperty(name);
      expect(Object.values(response.body)).not.toContain(null);
      const read = await call('GET', profilePath, { token: workspace.token });
      expect(read.body).not.toHaveProperty(name);
    },
  );

  it('clears the full name while a business name is present, then refuses to clear the business name', async () => {
    const { workspace } = await withProfile();

    const cleared = await call('PATCH', profilePath, {
      token: workspace.token,
      body: { billing_full_name: null },
    });
    const refused = await call('PATCH', profilePath, {
      token: workspace.token,
      body: { billing_business_name: null },
    });

    expect(cleared.status).toBe(200);
    expect(cleared.body).not.toHaveProperty('billing_full_name');
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([
      expect.objectContaining({ type: problemType('field-required'), pointer: '#/billing_business_name' }),
    ]);
  });

  it('clears the business name when the same PATCH brings a full name', async () => {
    const { workspace } = await withProfile({ ...complete, billing_full_name: undefined });

    const response = await call('PATCH', profilePath, {
      token: workspace.token,
      body: { billing_business_name: null, billing_full_name: 'Bea Biller' },
    });

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ billing_full_name: 'Bea Biller' });
    expect(response.body).not.toHaveProperty('billing_business_name');
  });

  it('refuses null on both names with one error per pointer', async () => {
    const { workspace } = await withProfile();

    const response = await call('PATCH', profilePath, {
      token: workspace.token,
      body: { billing_full_name: null, billing_business_name: null },
    });

    expect(response.status).toBe(422);
    expect(response.body.errors.map((error: { pointer: string }) => error.pointer)).toEqual([
      '#/billing_full_name',
      '#/billing_business_name',
    ]);
  });

  it('refuses null on a name in the first PATCH, and creates nothing', async () => {
    const workspace = await newWorkspace();

    const response = await call('PATCH', profilePath, {
      token: workspace.token,
      body: { billing_full_name: null, billing_email: 'a@b.test' },
    });

    expect(response.status).toBe(422);
    const read = await call('GET', profilePath, { token: workspace.token });
    expect(read.body.lock_version).toBe(0);
  });

  it.each([
    {
      title: 'a blank name',
      body: { billing_full_name: ' ' },
      type: 'field-required',
      pointer: '#/billing_full_name',
    },
    { title: 'a blank city', body: { billing_city: '' }, type: 'field-required', pointer: '#/billing_city' },
    {
      title: 'a country code that names no country',
      body: { billing_country_code: 'XX' },
      type: 'field-invalid',
      pointer: '#/billing_country_code',
    },
    {
      title: 'an e-mail address without a domain',
      body: { billing_email: 'invoices@' },
      type: 'field-invalid',
      pointer: '#/billing_email',
    },
    {
      title: 'a number for the city',
      body: { billing_city: 12 },
      type: 'field-type-invalid',
      pointer: '#/billing_city',
    },
    {
      title: 'a string lock_version',
      body: { lock_version: '1' },
      type: 'field-type-invalid',
      pointer: '#/lock_version',
    },
  ])('refuses $title with 422 at its pointer', async ({ body, type, pointer }) => {
    const { workspace } = await withProfile();

    const response = await call('PATCH', profilePath, { token: workspace.token, body });

    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual([expect.objectContaining({ type: problemType(type), pointer })]);
  });
});

describe('Billing profile: VAT number and country code are read-only after signup', () => {
  it.each([
    { name: 'billing_vat_number', other: 'ATU12345678' },
    { name: 'billing_country_code', other: 'AT' },
  ])('refuses another $name once set, with 422 field-invalid', async ({ name, other }) => {
    const { workspace } = await withProfile();

    const response = await call('PATCH', profilePath, { token: workspace.token, body: { [name]: other } });

    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual([
      expect.objectContaining({ type: problemType('field-invalid'), pointer: `#/${name}` }),
    ]);
  });

  it('accepts the stored values, written another way', async () => {
    const { workspace } = await withProfile();

    const response = await call('PATCH', profilePath, {
      token: workspace.token,
      body: { billing_vat_number: 'de 123.456.789', billing_country_code: 'de', billing_city: 'Bonn' },
    });

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ billing_vat_number: 'DE123456789', billing_country_code: 'DE' });
  });

  it('lets them be set later while unset, and the VAT number again after null cleared it', async () => {
    const { workspace } = await withProfile({ billing_email: 'a@b.test' });

    const set = await call('PATCH', profilePath, {
      token: workspace.token,
      body: { billing_vat_number: 'DE111111111', billing_country_code: 'FR' },
    });
    const cleared = await call('PATCH', profilePath, {
      token: workspace.token,
      body: { billing_vat_number: null },
    });
    const again = await call('PATCH', profilePath, {
      token: workspace.token,
      body: { billing_vat_number: 'FR12345678901' },
    });

    expect(set.status).toBe(200);
    expect(cleared.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ billing_vat_number: 'FR12345678901', billing_country_code: 'FR' });
  });
});

describe('Billing: who may touch it', () => {
  const operations = [
    { method: 'GET', path: profilePath, grant: 'billing:read' },
    { method: 'PATCH', path: profilePath, grant: 'billing:update', body: { billing_city: 'Bonn' } },
    { method: 'POST', path: '/api/v2/billing/portal-sessions', grant: 'billing:update' },
    { method: 'POST', path: '/api/v2/billing/payment-method-sessions', grant: 'billing:update' },
    { method: 'POST', path: '/api/v2/billing/recheck', grant: 'billing:update' },
  ];

  it.each(
    ['acme-dispatcher', 'acme-technician', 'acme-driver'].flatMap((client) =>
      operations.map((operation) => ({ client, ...operation })),
    ),
  )(
    'refuses $method $path to $client with 403 naming $grant',
    async ({ client, method, path, grant, body }) => {
      const response = await call(method, path, { token: await tokenFor(client), body });

      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({
        type: problemType('access-denied'),
        data: { reason: 'missing_grant', required_grants: [grant] },
      });
    },
  );

  it.each(['acme-owner', 'acme-admin'])('lets %s read the profile', async (client) => {
    const response = await call('GET', profilePath, { token: await tokenFor(client) });

    expect(response.status).toBe(200);
  });

  it('answers 401 without a token', async () => {
    const response = await call('POST', '/api/v2/billing/recheck');

    expect(response.status).toBe(401);
  });
});

describe('Billing: the local portal', () => {
  it('answers 201 with a single-use portal URL on the service origin, also in Location', async () => {
    const workspace = await newWorkspace();

    const response = await call('POST', '/api/v2/billing/portal-sessions', {
      token: workspace.token,
      body: { return_url: 'https://app.biller.test/billing' },
    });

    expect(response.status).toBe(201);
    expect(response.body.url).toMatch(new RegExp(`^${baseUrl()}/billing-portal/[A-Za-z0-9_-]{43}$`));
    expect(response.headers.get('location')).toBe(response.body.url);
    const expiresIn = Date.parse(response.body.expires_at) - Date.now();
    expect(expiresIn).toBeGreaterThan(4 * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(5 * 60_000);
    const page = await openPage(response.body.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('content-security-policy')).toContain("form-action 'self'");
    expect(page.html).toContain('href="https://app.biller.test/billing"');
    expect(field(page.html, 'standing')).toBe('GOOD_STANDING');
    const again = await openPage(response.body.url);
    expect(again.status).toBe(404);
    expect(again.visit).toBeUndefined();
  });

  it('refuses a return_url that is not http or https', async () => {
    const workspace = await newWorkspace();

    const response = await call('POST', '/api/v2/billing/portal-sessions', {
      token: workspace.token,
      body: { return_url: 'javascript:alert(1)' },
    });

    expect(response.status).toBe(422);
    expect(response.body.errors[0].pointer).toBe('#/return_url');
  });

  it('answers 404 pages for unknown links and for a form without the visit token of the page', async () => {
    const workspace = await newWorkspace();
    const url = await session(workspace, 'portal-sessions');
    await openPage(url);

    const unknown = await openPage(`${baseUrl()}/billing-portal/${'A'.repeat(43)}`);
    const forged = await submit(url, 'not-the-visit-token', 'pay_invoices');

    expect(unknown.status).toBe(404);
    expect(forged.status).toBe(404);
  });

  it('shows only the payment-method form on a payment-method session', async () => {
    const workspace = await newWorkspace();

    const page = await openPage(await session(workspace, 'payment-method-sessions'));

    expect(page.status).toBe(200);
    expect(page.html).toContain('value="add_payment_method"');
    expect(page.html).not.toContain('value="pay_invoices"');
  });

  it("sends the profile to the provider's customer, at creation and on every change", async () => {
    const { workspace } = await withProfile();
    const first = await inPortal(workspace);
    expect(first.html).toContain('Biller Services GmbH');
    expect(first.html).toContain('invoices@biller.test');

    const changed = await call('PATCH', profilePath, {
      token: workspace.token,
      body: { billing_business_name: 'Biller Holding AG', billing_email: 'ap@biller.test' },
    });
    expect(changed.status).toBe(200);

    const after = await inPortal(workspace);
    expect(after.html).toContain('Biller Holding AG');
    expect(after.html).toContain('ap@biller.test');
    expect(after.html).toContain(field(first.html, 'customer_id') ?? 'no customer');
  });
});

describe('Billing: recheck and the billing lock', () => {
  it('answers NO_ACCOUNT and leaves the lock alone while the workspace has no customer', async () => {
    const workspace = await newWorkspace();
    await adminAction(workspace, 'billing-lock');

    const response = await recheck(workspace);

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      status: 'NO_ACCOUNT',
      is_billing_locked: true,
      workspace_status: 'BILLING_LOCKED',
      checked_at: expect.any(String),
    });
  });

  it('sets the billing lock when the provider says past due: then 402 everywhere but the billing operations', async () => {
    const workspace = await newWorkspace();
    const failed = await inPortal(workspace, 'fail_payment');
    expect(field(failed.html, 'standing')).toBe('PAST_DUE');

    const locked = await recheck(workspace);

    expect(locked.status).toBe(200);
    expect(locked.body).toMatchObject({
      status: 'PAST_DUE',
      is_billing_locked: true,
      workspace_status: 'BILLING_LOCKED',
      has_payment_method: false,
    });
    for (const [method, path] of [
      ['GET', profilePath],
      ['PATCH', profilePath],
      ['GET', '/api/v2/tags'],
    ] as const) {
      const response = await call(method, path, {
        token: workspace.token,
        body: method === 'PATCH' ? {} : undefined,
      });
      expect(response.status, `${method} ${path}`).toBe(402);
      expect(response.body.type).toEqual(problemType('tenant-billing-locked'));
    }
    const workspaceRecord = await call('GET', `/admin-v1/workspaces/${workspace.id}`, { token: admin });
    expect(workspaceRecord.body).toMatchObject({ status: 'BILLING_LOCKED', is_billing_locked: true });
  });

  it('keeps the sessions and the recheck available while billing-locked, and lifts the lock once paid', async () => {
    const workspace = await newWorkspace();
    await adminAction(workspace, 'billing-lock');

    // The local provider's customer of a locked workspace starts past due, so a recheck alone lifts nothing.
    const card = await openPage(await session(workspace, 'payment-method-sessions'));
    expect(field(card.html, 'standing')).toBe('PAST_DUE');
    expect((await recheck(workspace)).body).toMatchObject({ status: 'PAST_DUE', is_billing_locked: true });

    const cardUrl = /action="([^"]+)"/.exec(card.html)?.[1] ?? '';
    const added = await submit(`${baseUrl()}${cardUrl}`, card.visit, 'add_payment_method');
    expect(added.status).toBe(200);
    expect(field(added.html, 'payment_method')).toBe('VISA •••• 4242');
    const paid = await inPortal(workspace, 'pay_invoices');
    expect(paid.status).toBe(200);
    expect(field(paid.html, 'standing')).toBe('GOOD_STANDING');

    const lifted = await recheck(workspace);

    expect(lifted.body).toMatchObject({
      status: 'GOOD_STANDING',
      is_billing_locked: false,
      workspace_status: 'ACTIVE',
      has_payment_method: true,
    });
    expect((await call('GET', profilePath, { token: workspace.token })).status).toBe(200);
  });

  it('refuses to pay without a payment method and stays locked', async () => {
    const workspace = await newWorkspace();
    await adminAction(workspace, 'billing-lock');

    const page = await inPortal(workspace, 'pay_invoices');

    expect(page.status).toBe(422);
    expect(page.html).toContain('Add a payment method before paying.');
    expect((await recheck(workspace)).body).toMatchObject({ status: 'PAST_DUE', is_billing_locked: true });
  });

  it('answers 403 tenant-disabled in a deactivated workspace except for the sessions and the recheck', async () => {
    const workspace = await newWorkspace();
    await adminAction(workspace, 'deactivate');

    for (const [method, path] of [
      ['GET', profilePath],
      ['PATCH', profilePath],
    ] as const) {
      const response = await call(method, path, {
        token: workspace.token,
        body: method === 'PATCH' ? {} : undefined,
      });
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.body).toMatchObject({
        type: problemType('tenant-disabled'),
        data: { reason: 'TENANT_INACTIVE' },
      });
    }
    const portal = await call('POST', '/api/v2/billing/portal-sessions', { token: workspace.token });
    const card = await call('POST', '/api/v2/billing/payment-method-sessions', { token: workspace.token });
    const checked = await recheck(workspace);

    expect(portal.status).toBe(201);
    expect(card.status).toBe(201);
    expect(checked.status).toBe(200);
    expect(checked.body).toMatchObject({
      status: 'GOOD_STANDING',
      is_billing_locked: false,
      workspace_status: 'INACTIVE',
    });
  });

  it('sets the lock underneath a deactivation, so the workspace is BILLING_LOCKED once activated', async () => {
    const workspace = await newWorkspace();
    await adminAction(workspace, 'deactivate');
    await inPortal(workspace, 'fail_payment');

    const checked = await recheck(workspace);

    expect(checked.body).toMatchObject({
      status: 'PAST_DUE',
      is_billing_locked: true,
      workspace_status: 'INACTIVE',
    });
    const activated = await adminAction(workspace, 'activate');
    expect(activated).toMatchObject({ status: 'BILLING_LOCKED', is_billing_locked: true });
  });

  it('publishes the three billing operations without 402 and the profile with it', async () => {
    const response = await call('GET', '/api/v2/openapi.json');
    const paths = response.body.paths;

    for (const path of [
      '/api/v2/billing/portal-sessions',
      '/api/v2/billing/payment-method-sessions',
      '/api/v2/billing/recheck',
    ]) {
      expect(paths[path].post.responses, path).not.toHaveProperty('402');
      expect(paths[path].post.description, path).toContain(
        'Available while the workspace is deactivated or billing-locked.',
      );
    }
    expect(paths[profilePath].get.responses).toHaveProperty('402');
    expect(paths['/billing-portal/{session_id}']).toBeUndefined();
  });
});
