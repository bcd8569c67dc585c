/**
 * Routes of the `custom-objects` operation group (one Lambda): custom-object definitions (this
 * issue's first part; instances, relations and the permission matrix follow). Every role reads
 * definitions (custom-objects:definitions:read); owners and admins change them
 * (custom-objects:definitions:update).
 */
import {
  CreateCustomObjectDefinitionSchema,
  CustomObjectDefinitionListSchema,
  CustomObjectDefinitionSchema,
  DefinitionListQuery,
  DefinitionSlugParams,
  UpdateCustomObjectDefinitionSchema,
} from '../../domain/custom-objects/definition.schema.ts';
import type { RouteSpec } from '../../http/route-spec.ts';
import { onePage } from '../crud-routes.ts';

const about =
  'A custom-object definition: a record type of the workspace, described by a slug (unique, renamable; the ' +
  'id stays), a title, an access class and JSON-Schema keywords flat beside them. It becomes a GraphQL type and ' +
  'root field named by the slug.';

const rules =
  'Checked when saved, each error at its pointer with a suggested fix: the slug (a lower-case letter, then a-z, ' +
  '0-9, _; at most 63; not a GraphQL name every schema defines), the supported keywords (type, format, readOnly, ' +
  'enum, items, properties, required, title, description; any other keyword is 422), enum values that stay ' +
  'distinct as GraphQL names, properties that do not shadow the system fields id, created_at, updated_at and ' +
  'lock_version, objects nested at most 5 levels. A slug another definition has is 409 resource-conflict at `#/slug`.';

const invoice = {
  id: '019d2f4b-7a1c-7e30-9c2d-4b8e1f0a6c71',
  slug: 'invoice',
  title: 'Invoice',
  access_class: 'STANDARD',
  type: 'object',
  properties: {
    number: { type: 'string', readOnly: true },
    amount: { type: 'number' },
    status: { type: 'string', enum: ['OPEN', 'PAID'] },
    billing_email: { type: 'string', format: 'email' },
  },
  required: ['number'],
  created_at: '2026-05-02T10:00:00Z',
  updated_at: '2026-05-02T10:00:00Z',
  lock_version: 0,
} as const;

const common = { group: 'custom-objects', tags: ['Custom objects'], auth: 'bearer' } as const;
const item = '/api/v2/custom-objects/definitions/{definition_slug}';

export const customObjectRoutes = [
  {
    ...common,
    grants: ['custom-objects:definitions:read'],
    operationId: 'custom_objects.definitions.list',
    method: 'GET',
    path: '/api/v2/custom-objects/definitions',
    summary: 'List custom-object definitions',
    description: `${about}\n\nDefault order: slug ascending.`,
    examples: { response: onePage(invoice) },
    query: DefinitionListQuery,
    success: { status: 200, description: 'A page of definitions.', schema: CustomObjectDefinitionListSchema },
  },
  {
    ...common,
    grants: ['custom-objects:definitions:update'],
    operationId: 'custom_objects.definitions.create',
    method: 'POST',
    path: '/api/v2/custom-objects/definitions',
    summary: 'Create a custom-object definition',
    description: `${about}\n\n\`slug\` and \`title\` are required; access_class defaults to STANDARD. ${rules} Emits custom_object_definition.created.`,
    examples: {
      request: {
        slug: 'invoice',
        title: 'Invoice',
        type: 'object',
        properties: invoice.properties,
        required: ['number'],
      },
      response: invoice,
    },
    body: CreateCustomObjectDefinitionSchema,
    errors: [409],
    success: {
      status: 201,
      description: 'The definition; Location names it.',
      schema: CustomObjectDefinitionSchema,
    },
  },
  {
    ...common,
    grants: ['custom-objects:definitions:read'],
    operationId: 'custom_objects.definitions.get',
    method: 'GET',
    path: item,
    summary: 'Get a custom-object definition',
    description: `${about}\n\nBy its current slug; an unknown slug, or one of another workspace, is 404.`,
    examples: { response: invoice },
    params: DefinitionSlugParams,
    success: { status: 200, description: 'The definition.', schema: CustomObjectDefinitionSchema },
  },
  {
    ...common,
    grants: ['custom-objects:definitions:update'],
    operationId: 'custom_objects.definitions.update',
    method: 'PATCH',
    path: item,
    summary: 'Update a custom-object definition (JSON Merge Patch)',
    description:
      `${about}\n\n\`properties\` merges per property (null removes one, another value replaces it); \`required\` ` +
      'and `description` are replaced or cleared with null. A new `slug` renames the type: its old slug is free ' +
      `at once, the id stays. ${rules} Emits custom_object_definition.updated.`,
    examples: {
      request: {
        title: 'Customer invoice',
        properties: { amount: { type: 'number', title: 'Amount (EUR)' } },
        lock_version: 0,
      },
      response: { ...invoice, title: 'Customer invoice', lock_version: 1 },
    },
    params: DefinitionSlugParams,
    body: UpdateCustomObjectDefinitionSchema,
    mergePatch: true,
    success: {
      status: 200,
      description: 'The definition after the change.',
      schema: CustomObjectDefinitionSchema,
    },
  },
  {
    ...common,
    grants: ['custom-objects:definitions:update'],
    operationId: 'custom_objects.definitions.delete',
    method: 'DELETE',
    path: item,
    summary: 'Delete a custom-object definition',
    description: `${about}\n\nThe definition is gone and its slug free. Emits custom_object_definition.deleted.`,
    examples: {},
    params: DefinitionSlugParams,
    success: { status: 204, description: 'Deleted.' },
  },
] as const satisfies readonly RouteSpec[];
