/**
 * Routes of custom-object instances and of the permission matrix of PROTECTED types (group
 * `custom-objects`). Instances are read with custom-objects:instances:read and written with
 * custom-objects:instances:update; a PROTECTED type also needs an entry of its matrix
 * (instance-access.ts). The matrix itself needs custom-objects:definitions:edit-permissions.
 */
import {
  CreateCustomObjectInstanceSchema,
  CustomObjectInstanceListSchema,
  CustomObjectInstanceSchema,
  DefinitionParams,
  InstanceListQuery,
  InstanceParams,
  PermissionMatrixSchema,
  ReplacePermissionMatrixSchema,
  UpdateCustomObjectInstanceSchema,
} from '../../domain/custom-objects/instance.schema.ts';
import type { RouteSpec } from '../../http/route-spec.ts';

const about =
  'An instance is a record of a custom-object type: `schema` names its definition, `data` holds id, ' +
  'created_at, updated_at and the properties, `display_value` labels it. Its data is validated against the ' +
  'definition with a JSON Schema validator: a property the definition does not declare is 422 field-unknown, ' +
  'a wrong type 422 field-type-invalid, a bad format or enum value 422 validation-failed, each at ' +
  '`#/data/<property>`; required properties are 422 field-required. readOnly properties are required at ' +
  'creation and never change afterwards. A PROTECTED type is reached only by the roles its permission matrix ' +
  'names (403 access-denied otherwise). An unknown slug is 404.';

const invoiceSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  slug: 'invoice',
  title: 'Invoice',
  type: 'object',
} as const;

const invoice = {
  schema: invoiceSchema,
  data: {
    id: '019d2f4b-8b2e-7c10-a3d4-5e6f7a8b9c0d',
    created_at: '2026-05-02T10:00:00Z',
    updated_at: '2026-05-02T10:00:00Z',
    number: 'INV-1001',
    amount: 149.5,
    status: 'OPEN',
  },
  display_value: 'INV-1001',
  lock_version: 0,
} as const;

const common = { group: 'custom-objects', tags: ['Custom objects'], auth: 'bearer' } as const;
const collection = '/api/v2/custom-objects/instances/{definition_slug}';
const item = `${collection}/{instance_id}`;
const matrix = '/api/v2/custom-objects/definitions/{definition_slug}/permissions';

export const customObjectInstanceRoutes = [
  {
    ...common,
    grants: ['custom-objects:instances:read'],
    operationId: 'custom_objects.instances.list',
    method: 'GET',
    path: collection,
    summary: 'List instances of a custom-object type',
    description:
      `${about}\n\nDefault order: id ascending, which is creation order (ids are UUIDv7). Sorting by id, ` +
      'created_at, updated_at or an indexed property costs the page; by any other property it reads the ' +
      "whole collection. `page.total_elements` comes from the type's counters.",
    examples: {
      response: {
        items: [invoice],
        schema: invoiceSchema,
        page: { size: 20, total_elements: 1, total_pages: 1, number: 0 },
      },
    },
    params: DefinitionParams,
    query: InstanceListQuery,
    success: { status: 200, description: 'A page of instances.', schema: CustomObjectInstanceListSchema },
  },
  {
    ...common,
    grants: ['custom-objects:instances:update'],
    operationId: 'custom_objects.instances.create',
    method: 'POST',
    path: collection,
    summary: 'Create an instance of a custom-object type',
    description:
      `${about}\n\n\`relations\` links the new record in the same write, by the name under which this type ` +
      'reaches the other side of a relation (one id, or a list for a MANY side): a side marked required must be ' +
      'given (422 required-relation), a ONE side takes one id (422 cardinality-violation-source / -target). ' +
      'Emits custom_object.<slug>.created, whose object carries definition_id and definition_slug.',
    examples: {
      request: { data: { number: 'INV-1001', amount: 149.5, status: 'OPEN' } },
      response: invoice,
    },
    params: DefinitionParams,
    body: CreateCustomObjectInstanceSchema,
    success: {
      status: 201,
      description: 'The instance; Location names it.',
      schema: CustomObjectInstanceSchema,
    },
  },
  {
    ...common,
    grants: ['custom-objects:instances:read'],
    operationId: 'custom_objects.instances.get',
    method: 'GET',
    path: item,
    summary: 'Get an instance',
    description: `${about}\n\nAn id of another type or workspace is 404.`,
    examples: { response: invoice },
    params: InstanceParams,
    success: { status: 200, description: 'The instance.', schema: CustomObjectInstanceSchema },
  },
  {
    ...common,
    grants: ['custom-objects:instances:update'],
    operationId: 'custom_objects.instances.update',
    method: 'PATCH',
    path: item,
    summary: 'Update an instance (JSON Merge Patch)',
    description:
      `${about}\n\n\`data\` merges as JSON Merge Patch (nested objects merge, null removes a property); the ` +
      'result is validated like a creation. A stale lock_version is 409. Emits custom_object.<slug>.updated.',
    examples: {
      request: { data: { status: 'PAID' }, lock_version: 0 },
      response: { ...invoice, data: { ...invoice.data, status: 'PAID' }, lock_version: 1 },
    },
    params: InstanceParams,
    body: UpdateCustomObjectInstanceSchema,
    mergePatch: true,
    success: {
      status: 200,
      description: 'The instance after the change.',
      schema: CustomObjectInstanceSchema,
    },
  },
  {
    ...common,
    grants: ['custom-objects:instances:update'],
    operationId: 'custom_objects.instances.delete',
    method: 'DELETE',
    path: item,
    summary: 'Delete an instance',
    description: `${about}\n\nIts associations go with it. Emits custom_object.<slug>.deleted.`,
    examples: {},
    params: InstanceParams,
    success: { status: 204, description: 'Deleted.' },
  },
  {
    ...common,
    grants: ['custom-objects:definitions:read'],
    operationId: 'custom_objects.permissions.get',
    method: 'GET',
    path: matrix,
    summary: 'Read the permission matrix of a PROTECTED type',
    description:
      'Who reads (`read`) and who reads and writes (`write`) the instances of a PROTECTED type: entries for ' +
      '`everyone` or for a `role`. Needs custom-objects:definitions:edit-permissions (owners and admins) or ' +
      'ownership of the workspace (403 otherwise); a STANDARD type has no matrix (422). A new PROTECTED type ' +
      'has an empty matrix: only holders of custom-objects:definitions:edit-permissions reach its instances.',
    examples: {
      response: {
        definition_slug: 'invoice',
        entries: [
          { principal_type: 'role', role_name: 'dispatcher', level: 'write' },
          { principal_type: 'everyone', level: 'read' },
        ],
      },
    },
    params: DefinitionParams,
    success: { status: 200, description: 'The matrix.', schema: PermissionMatrixSchema },
  },
  {
    ...common,
    grants: ['custom-objects:definitions:read'],
    operationId: 'custom_objects.permissions.replace',
    method: 'PUT',
    path: matrix,
    summary: 'Replace the permission matrix of a PROTECTED type',
    description:
      'The complete list of entries (replace, not merge): a role entry names one of owner, admin, dispatcher, ' +
      'technician, driver; one entry per principal. Same grants as reading it. Reads and writes of instances ' +
      'follow the new matrix at once, over REST and GraphQL. Emits custom_object_definition.permissions.updated.',
    examples: {
      request: { entries: [{ principal_type: 'role', role_name: 'dispatcher', level: 'write' }] },
      response: {
        definition_slug: 'invoice',
        entries: [{ principal_type: 'role', role_name: 'dispatcher', level: 'write' }],
      },
    },
    params: DefinitionParams,
    body: ReplacePermissionMatrixSchema,
    success: { status: 200, description: 'The matrix as stored.', schema: PermissionMatrixSchema },
  },
] as const satisfies readonly RouteSpec[];
