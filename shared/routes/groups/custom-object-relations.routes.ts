/**
 * Routes of custom-object relations and associations (group `custom-objects`): batch creation,
 * the relations of a definition, deletion, associating two instances and removing an
 * association, and the associated listing of an instance. Relations are changed with
 * custom-objects:definitions:update; associations with custom-objects:instances:update (and, for
 * PROTECTED types, write entries of both matrices); the associated listing reads with
 * custom-objects:instances:read.
 */
import {
  AssociatedListSchema,
  AssociatedParams,
  AssociationParams,
  AssociationSchema,
  CreateAssociationSchema,
  CreateRelationsSchema,
  DefinitionRelationsParams,
  maxLinksPerSide,
  maxRelationsPerBatch,
  maxRelationsPerWorkspace,
  RelationIdParams,
  RelationListQuery,
  RelationListSchema,
} from '../../domain/custom-objects/relation.schema.ts';
import type { RouteSpec } from '../../http/route-spec.ts';
import { onePage } from '../crud-routes.ts';

const about =
  'A relation joins two custom-object definitions, sides a and b. A side names its definition ' +
  '(`definition_slug`), its `cardinality` (how many records of the other side ONE record of this side may link ' +
  'to: ONE or MANY), whether a link is `required` when a record of this side is created, and its `slug`: the ' +
  'name under which the OTHER side reaches it (the field the relation adds to the other type in GraphQL, the ' +
  'key of `relations` when an instance of the other type is created, the `relation_slug` of its associated ' +
  'listing). A relation follows renames of its definitions (the sides show the current slugs).';

const cardinalityRule =
  'Cardinality (a side limits the records of that side): when side a is ONE and the side a instance already ' +
  'links to another side b instance, the answer is 422 cardinality-violation-source; when side b is ONE and ' +
  'the side b instance already links to another side a instance, 422 cardinality-violation-target. Both are ' +
  'checked again by the write itself, so concurrent requests cannot break them.';

const customerType = {
  definition_slug: 'customer',
  cardinality: 'MANY',
  required: false,
  slug: 'customer',
  title: 'Customer',
  is_hidden: false,
  translations: { de: { singular: 'Kunde', plural: 'Kunden' } },
} as const;

const invoiceType = {
  definition_slug: 'invoice',
  cardinality: 'ONE',
  required: true,
  slug: 'invoices',
  title: 'Invoices',
  is_hidden: false,
  translations: { de: { singular: 'Rechnung', plural: 'Rechnungen' } },
} as const;

const relation = {
  id: '019d2f4c-1a2b-7c3d-8e4f-5a6b7c8d9e0f',
  a: invoiceType,
  b: customerType,
  read_only: false,
} as const;

const association = {
  relation_id: relation.id,
  side_a_instance_id: '019d2f4b-8b2e-7c10-a3d4-5e6f7a8b9c0d',
  side_b_instance_id: '019d2f4a-0c1d-7e2f-9a3b-4c5d6e7f8a9b',
  created_at: '2026-05-02T10:05:00Z',
} as const;

const invoiceInstance = {
  schema: {
    $schema: 'http://json-schema.org/draft-07/schema#',
    slug: 'invoice',
    title: 'Invoice',
    type: 'object',
  },
  data: {
    id: association.side_a_instance_id,
    created_at: '2026-05-02T10:00:00Z',
    updated_at: '2026-05-02T10:00:00Z',
    number: 'INV-1001',
    amount: 149.5,
  },
  display_value: 'INV-1001',
  lock_version: 0,
} as const;

const common = { group: 'custom-objects', tags: ['Custom objects'], auth: 'bearer' } as const;
const relations = '/api/v2/custom-objects/relations';

export const customObjectRelationRoutes = [
  {
    ...common,
    grants: ['custom-objects:definitions:update'],
    operationId: 'custom_objects.relations.create',
    method: 'POST',
    path: relations,
    summary: 'Create custom-object relations (batch)',
    description:
      `${about}\n\n1 to ${maxRelationsPerBatch} relations per request, created together or not at all (any error ` +
      'creates none); Location names the collection. Defaults: required false, is_hidden false, translations ' +
      "none, title the side's definition title, read_only false (a hint for user interfaces, not enforced). " +
      "A side's slug must be free on the OTHER side's type: not one of its properties, not a system field (id, " +
      'created_at, updated_at, lock_version), not the slug of another of its relations (this batch included); ' +
      'the two slugs of a self-relation therefore differ, which keeps every relation slug unambiguous.\n\n' +
      'A malformed relation is 400, one type per answer (that of the first error in body order; errors[] lists ' +
      'all, each at its pointer such as `#/relations/0/a/slug`): location-relation-side-missing (a or b absent ' +
      'or not an object), location-relation-definition-unknown (definition_slug names no definition of the ' +
      'workspace), location-relation-cardinality-invalid (not ONE or MANY), location-relation-slug-invalid ' +
      '(malformed or taken, as above), location-relation-invalid (any other field of the wrong type, an unknown ' +
      `field, an entry that is not an object). An empty or too long \`relations\` is 422. A workspace holds at ` +
      `most ${maxRelationsPerWorkspace} relations (422 validation-failed at \`#/relations\` beyond). Emits ` +
      'custom_object_relation.created per relation.',
    examples: {
      request: {
        relations: [
          {
            a: {
              definition_slug: 'invoice',
              cardinality: 'ONE',
              required: true,
              slug: 'invoices',
              title: 'Invoices',
              translations: { de: { singular: 'Rechnung', plural: 'Rechnungen' } },
            },
            b: {
              definition_slug: 'customer',
              cardinality: 'MANY',
              slug: 'customer',
              title: 'Customer',
              translations: { de: { singular: 'Kunde', plural: 'Kunden' } },
            },
          },
        ],
      },
      response: onePage(relation, 1),
    },
    body: CreateRelationsSchema,
    success: {
      status: 201,
      description: 'The relations created, as one page; Location names the collection.',
      schema: RelationListSchema,
    },
  },
  {
    ...common,
    grants: ['custom-objects:definitions:read'],
    operationId: 'custom_objects.relations.list',
    method: 'GET',
    path: '/api/v2/custom-objects/definitions/{definition_slug}/relations',
    summary: 'List the relations of a custom-object definition',
    description:
      `${about}\n\nEvery relation with the definition on side a or b (a self-relation once), oldest first. ` +
      'Readable by users who may modify definitions or instances: besides custom-objects:definitions:read the ' +
      'caller needs custom-objects:definitions:update or custom-objects:instances:update (403 access-denied, ' +
      'data.reason missing_grant, otherwise). An unknown slug is 404.',
    examples: { response: onePage(relation), query: 'page=0&size=20' },
    params: DefinitionRelationsParams,
    query: RelationListQuery,
    success: { status: 200, description: 'A page of relations.', schema: RelationListSchema },
  },
  {
    ...common,
    grants: ['custom-objects:definitions:update'],
    operationId: 'custom_objects.relations.delete',
    method: 'DELETE',
    path: `${relations}/{relation_id}`,
    summary: 'Delete a custom-object relation',
    description:
      `${about}\n\nThe relation is gone at once (404 afterwards; its fields leave the GraphQL schema on the next ` +
      'query), and so are its associations: up to 200 before the answer, larger sets within moments after it. ' +
      'An unknown id, or one of another workspace, is 404. Emits custom_object_relation.deleted.',
    examples: {},
    params: RelationIdParams,
    success: { status: 204, description: 'Deleted, with its associations.' },
  },
  {
    ...common,
    grants: ['custom-objects:instances:update'],
    operationId: 'custom_objects.associations.create',
    method: 'POST',
    path: `${relations}/{relation_id}/associations`,
    summary: 'Associate two custom-object instances',
    description:
      'Links an instance of side a with an instance of side b of a relation. For a PROTECTED type the caller ' +
      'also needs a write entry of its permission matrix, on both sides (403 access-denied). An unknown relation ' +
      'is 404; an id that names no instance of its side is 422 validation-failed at `#/side_a_instance_id` or ' +
      `\`#/side_b_instance_id\`, as is an instance associated with itself and one that already has ${maxLinksPerSide} ` +
      `links through its side of the relation (the limit). ${cardinalityRule} Associating a pair that is ` +
      'already associated changes nothing and answers 201 with the existing association (safe to retry). ' +
      'Location names the association (DELETE removes it). Emits custom_object_relation.association.created ' +
      '(not for a repeat).',
    examples: {
      request: {
        side_a_instance_id: association.side_a_instance_id,
        side_b_instance_id: association.side_b_instance_id,
      },
      response: association,
    },
    params: RelationIdParams,
    body: CreateAssociationSchema,
    success: { status: 201, description: 'The association; Location names it.', schema: AssociationSchema },
  },
  {
    ...common,
    grants: ['custom-objects:instances:update'],
    operationId: 'custom_objects.associations.delete',
    method: 'DELETE',
    path: `${relations}/{relation_id}/associations/{side_a_instance_id}/{side_b_instance_id}`,
    summary: 'Remove an association',
    description:
      'Unlinks the two instances (side a first, side b second in the path). For a PROTECTED type the caller also ' +
      'needs a write entry of its permission matrix, on both sides (403 access-denied). An unknown relation, or ' +
      'two instances that are not associated through it, is 404: repeating a removal answers 404. Emits ' +
      'custom_object_relation.association.deleted.',
    examples: {},
    params: AssociationParams,
    success: { status: 204, description: 'Removed.' },
  },
  {
    ...common,
    grants: ['custom-objects:instances:read'],
    operationId: 'custom_objects.instances.associated',
    method: 'GET',
    path: '/api/v2/custom-objects/instances/{definition_slug}/{instance_id}/associated/{relation_slug}',
    summary: 'List the instances associated with an instance',
    description:
      'The complete set of instances linked to one instance through one relation, oldest first, in one page ' +
      `(at most ${maxLinksPerSide}), with the \`schema\` of their definition. \`relation_slug\` is the name under ` +
      "which this instance's type reaches the other side: the other side's `slug`. A self-relation is reached by " +
      'either of its two (distinct) slugs: the slug of side b lists the side b instances this instance links ' +
      'to as side a, the slug of side a the side a instances that link to it as side b. Hidden sides are listed ' +
      'here too (is_hidden concerns GraphQL). Reading needs read access to both types (for a PROTECTED type an ' +
      'entry of its permission matrix; 403 access-denied otherwise). An unknown type, instance or relation slug ' +
      'is 404.',
    examples: {
      response: {
        items: [invoiceInstance],
        schema: invoiceInstance.schema,
        page: { size: 1, total_elements: 1, total_pages: 1, number: 0 },
      },
    },
    params: AssociatedParams,
    success: {
      status: 200,
      description: 'Every associated instance, in one page.',
      schema: AssociatedListSchema,
    },
  },
] as const satisfies readonly RouteSpec[];
