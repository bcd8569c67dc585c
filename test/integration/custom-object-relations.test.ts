/**
 * Custom-object relations and associations over HTTP: batch creation (all or nothing, Location
 * the collection), the 400 location-relation-* family at its pointers, the relations of a
 * definition and who may read them, associations with the cardinality 422s of API-DECISIONS.md,
 * removal, the associated listing (complete set, self-relations by either slug), required
 * relations at instance creation, deletion with its associations, renames and workspace isolation.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, eventually, problemType, tokenFor } from '../support/api.ts';

let admin: string;
let dispatcher: string;
let technician: string;
let beta: string;

beforeAll(async () => {
  [admin, dispatcher, technician, beta] = await Promise.all([
    tokenFor('cases-admin'),
    tokenFor('cases-dispatcher'),
    tokenFor('cases-technician'),
    tokenFor('beta-admin'),
  ]);
});

const unique = (base: string) => `${base}_${randomUUID().slice(0, 8)}`;
const pointers = (response: { body: { errors?: Array<{ pointer: string }> } }) =>
  (response.body.errors ?? []).map((error) => error.pointer);
const relationsPath = '/api/v2/custom-objects/relations';

async function define(base: string, properties: Record<string, unknown> = { name: { type: 'string' } }) {
  const slug = unique(base);
  const response = await call('POST', '/api/v2/custom-objects/definitions', {
    token: admin,
    body: { slug, title: base[0]?.toUpperCase() + base.slice(1), type: 'object', properties },
  });
  expect(response.status, response.text).toBe(201);
  return slug;
}

async function instance(slug: string, data: Record<string, unknown>, relations?: Record<string, unknown>) {
  const response = await call('POST', `/api/v2/custom-objects/instances/${slug}`, {
    token: admin,
    body: { data, ...(relations ? { relations } : {}) },
  });
  expect(response.status, response.text).toBe(201);
  return response.body.data.id as string;
}

function side(
  definition_slug: string,
  slug: string,
  cardinality = 'MANY',
  extra: Record<string, unknown> = {},
) {
  return { definition_slug, cardinality, slug, ...extra };
}

async function relate(...relations: Array<Record<string, unknown>>) {
  const response = await call('POST', relationsPath, { token: admin, body: { relations } });
  expect(response.status, response.text).toBe(201);
  return response.body.items as Array<{ id: string; a: Record<string, unknown>; b: Record<string, unknown> }>;
}

const associate = (relationId: string, a: string, b: string, token = admin) =>
  call('POST', `${relationsPath}/${relationId}/associations`, {
    token,
    body: { side_a_instance_id: a, side_b_instance_id: b },
  });

const associated = async (slug: string, id: string, relationSlug: string, token = admin) =>
  call('GET', `/api/v2/custom-objects/instances/${slug}/${id}/associated/${relationSlug}`, { token });

const ids = (response: { body: { items: Array<{ data: { id: string } }> } }) =>
  response.body.items.map((item) => item.data.id);

describe('Custom-object relations', () => {
  let invoice: string;
  let customer: string;

  beforeAll(async () => {
    invoice = await define('invoice', { number: { type: 'string' }, amount: { type: 'number' } });
    customer = await define('customer', { name: { type: 'string' } });
  });

  describe('creation (batch)', () => {
    it('creates every relation of a batch with the defaults, Location naming the collection', async () => {
      // Prepare: types of their own, since a required side binds every later creation.
      const invoice = await define('invoice', { number: { type: 'string' } });
      const customer = await define('customer');

      // Act
      const response = await call('POST', relationsPath, {
        token: admin,
        body: {
          relations: [
            {
              a: side(invoice, 'billed_invoices', 'ONE', {
                required: true,
                translations: { de: { singular: 'Rechnung', plural: 'Rechnungen' } },
              }),
              b: side(customer, 'billed_to', 'MANY', { title: 'Bill-to' }),
            },
            { a: side(customer, 'up', 'MANY'), b: side(customer, 'down', 'ONE'), read_only: true },
          ],
        },
      });

      // Assess
      expect(response.status, response.text).toBe(201);
      expect(response.headers.get('location')).toMatch(/\/api\/v2\/custom-objects\/relations$/);
      expect(response.body.page).toEqual({ size: 2, total_elements: 2, total_pages: 1, number: 0 });
      expect(response.body.items[0]).toEqual({
        id: expect.any(String),
        a: {
          definition_slug: invoice,
          cardinality: 'ONE',
          required: true,
          slug: 'billed_invoices',
          title: 'Invoice',
          is_hidden: false,
          translations: { de: { singular: 'Rechnung', plural: 'Rechnungen' } },
        },
        b: {
          definition_slug: customer,
          cardinality: 'MANY',
          required: false,
          slug: 'billed_to',
          title: 'Bill-to',
          is_hidden: false,
          translations: {},
        },
        read_only: false,
      });
      expect(response.body.items[1]).toMatchObject({
        a: { definition_slug: customer, slug: 'up' },
        b: { definition_slug: customer, slug: 'down', cardinality: 'ONE' },
        read_only: true,
      });
    });

    const valid = () => ({ a: side(invoice, unique('inv')), b: side(customer, unique('cus')) });

    it.each([
      ['a side is absent', () => ({ b: valid().b }), 'location-relation-side-missing', ['#/relations/0/a']],
      [
        'a side is not an object',
        () => ({ ...valid(), b: 'customer' }),
        'location-relation-side-missing',
        ['#/relations/0/b'],
      ],
      [
        'definition_slug names no definition',
        () => ({ ...valid(), a: side('no_such_type', 'x_ref') }),
        'location-relation-definition-unknown',
        ['#/relations/0/a/definition_slug'],
      ],
      [
        'definition_slug is absent',
        () => ({ ...valid(), b: { cardinality: 'ONE', slug: 'x_ref' } }),
        'location-relation-definition-unknown',
        ['#/relations/0/b/definition_slug'],
      ],
      [
        'the cardinality is neither ONE nor MANY',
        () => ({ ...valid(), b: side(customer, unique('c'), 'SEVERAL') }),
        'location-relation-cardinality-invalid',
        ['#/relations/0/b/cardinality'],
      ],
      [
        'a slug is malformed',
        () => ({ ...valid(), a: side(invoice, 'Bad Slug') }),
        'location-relation-slug-invalid',
        ['#/relations/0/a/slug'],
      ],
      [
        "a slug is a property of the other side's type",
        // Side a's slug becomes a field of side b's type (customer), which has `name`.
        () => ({ ...valid(), a: side(invoice, 'name') }),
        'location-relation-slug-invalid',
        ['#/relations/0/a/slug'],
      ],
      [
        'a slug is a system field',
        () => ({ ...valid(), b: side(customer, 'updated_at') }),
        'location-relation-slug-invalid',
        ['#/relations/0/b/slug'],
      ],
      [
        'the two slugs of a self-relation are the same',
        () => ({ a: side(customer, 'peer'), b: side(customer, 'peer') }),
        'location-relation-slug-invalid',
        ['#/relations/0/b/slug'],
      ],
      [
        'a field of a side has the wrong type',
        () => ({ ...valid(), a: { ...side(invoice, unique('t')), title: 5 } }),
        'location-relation-invalid',
        ['#/relations/0/a/title'],
      ],
      [
        'a side has an unknown field',
        () => ({ ...valid(), a: { ...side(invoice, unique('t')), colour: 'red' } }),
        'location-relation-invalid',
        ['#/relations/0/a/colour'],
      ],
      ['an entry is not an object', () => 'invoice-customer', 'location-relation-invalid', ['#/relations/0']],
    ])('answers 400 when %s', async (_case, build, type, expected) => {
      // Act
      const response = await call('POST', relationsPath, { token: admin, body: { relations: [build()] } });

      // Assess
      expect(response.status, response.text).toBe(400);
      expect(response.body.type).toEqual(problemType(type));
      expect(pointers(response)).toEqual(expected);
    });

    it('creates nothing when one relation of the batch is wrong, and lists every error', async () => {
      // Prepare
      const slug = unique('kept_out');
      const ok = { a: side(invoice, unique('inv')), b: side(customer, slug) };

      // Act
      const response = await call('POST', relationsPath, {
        token: admin,
        body: {
          relations: [
            ok,
            { a: side(invoice, unique('x')), b: side(customer, slug) },
            { a: side(invoice, unique('y')), b: side(customer, unique('z'), 'SOME') },
          ],
        },
      });
      const listed = await call('GET', `/api/v2/custom-objects/definitions/${customer}/relations?size=100`, {
        token: admin,
      });

      // Assess: the second repeats the first one's field on the invoice type.
      expect(response.status).toBe(400);
      expect(response.body.type).toEqual(problemType('location-relation-slug-invalid'));
      expect(pointers(response)).toEqual(['#/relations/1/b/slug', '#/relations/2/b/cardinality']);
      expect(listed.body.items.map((item: { b: { slug: string } }) => item.b.slug)).not.toContain(slug);
    });

    it('answers 422 for an empty batch and 403 without custom-objects:definitions:update', async () => {
      const empty = await call('POST', relationsPath, { token: admin, body: { relations: [] } });
      const denied = await call('POST', relationsPath, {
        token: dispatcher,
        body: { relations: [{ a: side(invoice, unique('d')), b: side(customer, unique('d')) }] },
      });

      expect(empty.status).toBe(422);
      expect(denied.status).toBe(403);
      expect(denied.body.data.required_grants).toEqual(['custom-objects:definitions:update']);
    });
  });

  describe('relations of a definition', () => {
    it('lists the relations on either side, oldest first, paged, for who may change definitions or instances', async () => {
      // Prepare
      const job = await define('job');
      const [first, second] = await relate(
        { a: side(job, 'jobs'), b: side(customer, 'client') },
        { a: side(job, 'follow_ups'), b: side(job, 'previous', 'ONE') },
      );

      // Act
      const all = await call('GET', `/api/v2/custom-objects/definitions/${job}/relations`, { token: admin });
      const paged = await call('GET', `/api/v2/custom-objects/definitions/${job}/relations?page=1&size=1`, {
        token: dispatcher,
      });
      const denied = await call('GET', `/api/v2/custom-objects/definitions/${job}/relations`, {
        token: technician,
      });
      const unknown = await call('GET', `/api/v2/custom-objects/definitions/${unique('none')}/relations`, {
        token: admin,
      });

      // Assess
      expect(all.status, all.text).toBe(200);
      expect(all.body.items.map((item: { id: string }) => item.id)).toEqual([first?.id, second?.id]);
      expect(all.body.page).toEqual({ size: 20, total_elements: 2, total_pages: 1, number: 0 });
      expect(paged.status).toBe(200);
      expect(paged.body.items.map((item: { id: string }) => item.id)).toEqual([second?.id]);
      expect(denied.status).toBe(403);
      expect(denied.body.type).toEqual(problemType('access-denied'));
      expect(denied.body.data.reason).toBe('missing_grant');
      expect(unknown.status).toBe(404);
    });

    it('keeps a relation through a rename of its definition and shows the new slug', async () => {
      // Prepare
      const site = await define('site');
      const [relation] = await relate({ a: side(site, 'sites'), b: side(customer, 'owner') });
      const renamed = `${site}_v2`;

      // Act
      const patch = await call('PATCH', `/api/v2/custom-objects/definitions/${site}`, {
        token: admin,
        body: { slug: renamed },
      });
      const list = await call('GET', `/api/v2/custom-objects/definitions/${renamed}/relations`, {
        token: admin,
      });
      const old = await call('GET', `/api/v2/custom-objects/definitions/${site}/relations`, { token: admin });

      // Assess
      expect(patch.status, patch.text).toBe(200);
      expect(list.body.items).toEqual([
        expect.objectContaining({
          id: relation?.id,
          a: expect.objectContaining({ definition_slug: renamed }),
        }),
      ]);
      expect(old.status).toBe(404);
    });
  });

  describe('associations', () => {
    let relationId: string;
    let treeId: string;

    beforeAll(async () => {
      // invoice (a, ONE: one customer per invoice) – customer (b, MANY: many invoices per customer);
      // customer tree: parent (a, MANY children) – child (b, ONE parent).
      const [billing, tree] = await relate(
        { a: side(invoice, 'invoices', 'ONE'), b: side(customer, 'customer', 'MANY') },
        { a: side(customer, 'parent', 'MANY'), b: side(customer, 'children', 'ONE') },
      );
      relationId = billing?.id as string;
      treeId = tree?.id as string;
    });

    it('associates two instances (201, Location) and answers 201 again for the same pair', async () => {
      // Prepare
      const [i1, c1] = [
        await instance(invoice, { number: 'I-1' }),
        await instance(customer, { name: 'Ada' }),
      ];

      // Act
      const first = await associate(relationId, i1, c1);
      const again = await associate(relationId, i1, c1);

      // Assess
      expect(first.status, first.text).toBe(201);
      expect(first.body).toEqual({
        relation_id: relationId,
        side_a_instance_id: i1,
        side_b_instance_id: c1,
        created_at: expect.any(String),
      });
      expect(first.headers.get('location')).toMatch(
        new RegExp(`/api/v2/custom-objects/relations/${relationId}/associations/${i1}/${c1}$`),
      );
      expect(again.status).toBe(201);
      expect(again.body).toEqual(first.body);
    });

    it('answers 422 cardinality-violation-source when side a is ONE and already linked to another b', async () => {
      // Prepare
      const i1 = await instance(invoice, { number: 'I-2' });
      const [c1, c2] = [await instance(customer, { name: 'Bo' }), await instance(customer, { name: 'Cy' })];
      await associate(relationId, i1, c1);

      // Act
      const response = await associate(relationId, i1, c2);

      // Assess
      expect(response.status, response.text).toBe(422);
      expect(response.body.type).toEqual(problemType('cardinality-violation-source'));
      expect(pointers(response)).toEqual(['#/side_a_instance_id']);
    });

    it('answers 422 cardinality-violation-target when side b is ONE and already linked to another a', async () => {
      // Prepare
      const [p1, p2, child] = [
        await instance(customer, { name: 'P1' }),
        await instance(customer, { name: 'P2' }),
        await instance(customer, { name: 'Kid' }),
      ];
      const first = await associate(treeId, p1, child);

      // Act
      const response = await associate(treeId, p2, child);

      // Assess
      expect(first.status, first.text).toBe(201);
      expect(response.status, response.text).toBe(422);
      expect(response.body.type).toEqual(problemType('cardinality-violation-target'));
      expect(pointers(response)).toEqual(['#/side_b_instance_id']);
    });

    it('answers 422 at the pointer of an id that names no instance of its side, or the same instance twice', async () => {
      // Prepare
      const c1 = await instance(customer, { name: 'Solo' });

      // Act
      const wrongSide = await associate(relationId, c1, c1);
      const self = await associate(treeId, c1, c1);

      // Assess: c1 is a customer, not an invoice.
      expect(wrongSide.status).toBe(422);
      expect(pointers(wrongSide)).toEqual(['#/side_a_instance_id']);
      expect(self.status).toBe(422);
      expect(pointers(self)).toEqual(['#/side_b_instance_id']);
    });

    it('removes an association (204, then 404), which frees a ONE side', async () => {
      // Prepare
      const i1 = await instance(invoice, { number: 'I-3' });
      const [c1, c2] = [await instance(customer, { name: 'Di' }), await instance(customer, { name: 'Ed' })];
      await associate(relationId, i1, c1);
      const path = `${relationsPath}/${relationId}/associations/${i1}/${c1}`;

      // Act
      const removed = await call('DELETE', path, { token: dispatcher });
      const again = await call('DELETE', path, { token: dispatcher });
      const other = await associate(relationId, i1, c2, dispatcher);

      // Assess
      expect(removed.status, removed.text).toBe(204);
      expect(again.status).toBe(404);
      expect(other.status, other.text).toBe(201);
      expect(ids(await associated(customer, c1, 'invoices'))).toEqual([]);
    });

    it('records the creation and the removal of an association in the audit log, a repeated create once', async () => {
      // Prepare
      const [i1, c1] = [
        await instance(invoice, { number: 'I-A' }),
        await instance(customer, { name: 'Gil' }),
      ];

      // Act
      await associate(relationId, i1, c1);
      await associate(relationId, i1, c1);
      await call('DELETE', `${relationsPath}/${relationId}/associations/${i1}/${c1}`, { token: dispatcher });

      // Assess
      const entries = await eventually(async () => {
        const log = await call('GET', '/api/v2/audit-logs?size=100', { token: admin });
        const found = (log.body.items as Array<Record<string, any>>).filter(
          (entry) => entry.data?.object?.side_a_instance_id === i1,
        );
        expect(found).toHaveLength(2);
        return found.reverse();
      });
      expect(entries.map((entry) => entry.event_type)).toEqual([
        'custom_object_relation.association.created',
        'custom_object_relation.association.deleted',
      ]);
      expect(entries[0]).toMatchObject({
        resource: { type: 'custom_object_relation', id: relationId },
        data: { object: { relation_id: relationId, side_a_instance_id: i1, side_b_instance_id: c1 } },
      });
    });

    it('lists the complete associated set with the schema of the other type, from either side', async () => {
      // Prepare
      const c1 = await instance(customer, { name: 'Fay' });
      const invoices = [
        await instance(invoice, { number: 'I-4' }),
        await instance(invoice, { number: 'I-5' }),
      ];
      for (const id of invoices) await associate(relationId, id, c1);

      // Act
      const fromCustomer = await associated(customer, c1, 'invoices');
      const fromInvoice = await associated(invoice, invoices[0] as string, 'customer');
      const unknown = await associated(customer, c1, 'nothing_here');

      // Assess
      expect(fromCustomer.status, fromCustomer.text).toBe(200);
      expect(ids(fromCustomer)).toEqual(invoices);
      expect(fromCustomer.body.schema).toMatchObject({ slug: invoice, type: 'object' });
      expect(fromCustomer.body.items[0]).toMatchObject({ data: { number: 'I-4' }, lock_version: 0 });
      expect(fromCustomer.body.page).toEqual({ size: 2, total_elements: 2, total_pages: 1, number: 0 });
      expect(ids(fromInvoice)).toEqual([c1]);
      expect(fromInvoice.body.schema.slug).toBe(customer);
      expect(unknown.status).toBe(404);
    });

    it('reaches both sides of a self-relation by their two slugs', async () => {
      // Prepare
      const [parent, kid1, kid2] = [
        await instance(customer, { name: 'Root' }),
        await instance(customer, { name: 'Leaf 1' }),
        await instance(customer, { name: 'Leaf 2' }),
      ];
      await associate(treeId, parent, kid1);
      await associate(treeId, parent, kid2);

      // Act
      const children = await associated(customer, parent, 'children');
      const up = await associated(customer, kid2, 'parent');

      // Assess
      expect(ids(children)).toEqual([kid1, kid2]);
      expect(ids(up)).toEqual([parent]);
      expect(ids(await associated(customer, parent, 'parent'))).toEqual([]);
    });

    it('forgets a deleted instance: its partners leave the listing and a ONE side is free again', async () => {
      // Prepare
      const i1 = await instance(invoice, { number: 'I-6' });
      const [c1, c2] = [
        await instance(customer, { name: 'Gone' }),
        await instance(customer, { name: 'Next' }),
      ];
      await associate(relationId, i1, c1);

      // Act
      const deleted = await call('DELETE', `/api/v2/custom-objects/instances/${customer}/${c1}`, {
        token: admin,
      });
      const listing = await associated(invoice, i1, 'customer');
      const relinked = await associate(relationId, i1, c2);

      // Assess
      expect(deleted.status, deleted.text).toBe(204);
      expect(ids(listing)).toEqual([]);
      expect(relinked.status, relinked.text).toBe(201);
    });

    it('needs custom-objects:instances:update to associate', async () => {
      const response = await associate(relationId, randomUUID(), randomUUID(), technician);
      expect(response.status).toBe(403);
      expect(response.body.data.required_grants).toEqual(['custom-objects:instances:update']);
    });
  });

  describe('required relations at instance creation', () => {
    it('refuses a new instance without its required relation (422 required-relation), creates it with one', async () => {
      // Prepare: every contract names its client (side a required, ONE).
      const contract = await define('contract', { title: { type: 'string' } });
      await relate({
        a: side(contract, 'contracts', 'ONE', { required: true }),
        b: side(customer, 'client'),
      });
      const client = await instance(customer, { name: 'Gus' });

      // Act
      const missing = await call('POST', `/api/v2/custom-objects/instances/${contract}`, {
        token: admin,
        body: { data: { title: 'Maintenance' } },
      });
      const unknown = await call('POST', `/api/v2/custom-objects/instances/${contract}`, {
        token: admin,
        body: { data: { title: 'Maintenance' }, relations: { client, nothing: client } },
      });
      const two = await call('POST', `/api/v2/custom-objects/instances/${contract}`, {
        token: admin,
        body: { data: { title: 'Maintenance' }, relations: { client: [client, randomUUID()] } },
      });
      const absent = await call('POST', `/api/v2/custom-objects/instances/${contract}`, {
        token: admin,
        body: { data: { title: 'Maintenance' }, relations: { client: randomUUID() } },
      });
      const created = await instance(contract, { title: 'Maintenance' }, { client });

      // Assess
      expect(missing.status, missing.text).toBe(422);
      expect(missing.body.type).toEqual(problemType('required-relation'));
      expect(pointers(missing)).toEqual(['#/relations/client']);
      expect(unknown.status).toBe(422);
      expect(pointers(unknown)).toEqual(['#/relations/nothing']);
      expect(two.status).toBe(422);
      expect(two.body.type).toEqual(problemType('cardinality-violation-source'));
      expect(absent.status).toBe(422);
      expect(pointers(absent)).toEqual(['#/relations/client']);
      expect(ids(await associated(customer, client, 'contracts'))).toEqual([created]);
      expect(ids(await associated(contract, created, 'client'))).toEqual([client]);
    });
  });

  describe('deletion', () => {
    it('deletes a relation (204, then 404) with its associations; its slugs are free again', async () => {
      // Prepare
      const visit = await define('visit');
      const [relation] = await relate({ a: side(visit, 'visits'), b: side(customer, 'visited') });
      const [v1, c1] = [await instance(visit, { name: 'V' }), await instance(customer, { name: 'Hal' })];
      await associate(relation?.id as string, v1, c1);

      // Act
      const deleted = await call('DELETE', `${relationsPath}/${relation?.id}`, { token: admin });
      const again = await call('DELETE', `${relationsPath}/${relation?.id}`, { token: admin });
      const listing = await associated(visit, v1, 'visited');
      const [recreated] = await relate({ a: side(visit, 'visits'), b: side(customer, 'visited') });

      // Assess
      expect(deleted.status, deleted.text).toBe(204);
      expect(again.status).toBe(404);
      expect(listing.status).toBe(404);
      expect(ids(await associated(visit, v1, 'visited'))).toEqual([]);
      expect(recreated?.id).not.toBe(relation?.id);
    });
  });

  describe('workspace isolation', () => {
    it("keeps another workspace's relations and instances out of reach (404)", async () => {
      // Prepare
      const [relation] = await relate({ a: side(invoice, unique('iso')), b: side(customer, unique('iso')) });
      const [i1, c1] = [
        await instance(invoice, { number: 'I-9' }),
        await instance(customer, { name: 'Ivy' }),
      ];

      // Act
      const list = await call('GET', `/api/v2/custom-objects/definitions/${customer}/relations`, {
        token: beta,
      });
      const link = await associate(relation?.id as string, i1, c1, beta);
      const unlink = await call('DELETE', `${relationsPath}/${relation?.id}/associations/${i1}/${c1}`, {
        token: beta,
      });
      const remove = await call('DELETE', `${relationsPath}/${relation?.id}`, { token: beta });
      const read = await associated(customer, c1, String(relation?.a.slug), beta);

      // Assess
      expect([list.status, link.status, unlink.status, remove.status, read.status]).toEqual([
        404, 404, 404, 404, 404,
      ]);
    });
  });
});
