/**
 * Routes of the `graphql` operation group (one Lambda): the per-workspace read-only GraphQL API,
 * its SDL and its query endpoint (SPEC.md, "GraphQL API (read only)"; API-DECISIONS.md: POST
 * /api/v2/graphql, GraphQL over HTTP, Relay cursors, introspection for every caller). Every member
 * of the workspace may query (custom-objects:definitions:read, which every role holds); what a
 * type's records show follows the caller's read access per type.
 */
import * as z from 'zod';
import type { RouteSpec } from '../../http/route-spec.ts';

const common = {
  group: 'graphql',
  tags: ['GraphQL'],
  auth: 'bearer',
  grants: ['custom-objects:definitions:read'],
} as const;

const generation =
  "The schema is generated from the workspace's custom-object definitions and relations: one root field per " +
  'definition, named by its slug, returning `<slug>Connection!` with the arguments `where: <slug>Filter`, ' +
  '`order_by: [<slug>OrderBy!]`, `first`, `after`, `last`, `before` and `offset`; types `<slug>`, ' +
  '`<slug>Connection` (`edges { cursor node }`, `pageInfo { hasNextPage hasPreviousPage startCursor endCursor }`, ' +
  '`totalCount: Long!`), `<slug>Edge`, `<slug>Filter`, `<slug>OrderBy`, nested-object inputs `<slug>_<field>Filter` ' +
  'and `<slug>_<field>OrderBy`, enums `<slug>_<field>`. Scalars: string → String (format uuid → ID, date → Date, ' +
  'time → Time, date-time → DateTime), number and integer → Float, boolean → Boolean, array → a list of its ' +
  "items' type (String by default), object → String holding its JSON (keys in alphabetical order). A readOnly property is non-null; every " +
  'type has `id: ID!`, `created_at: DateTime!`, `updated_at: DateTime!`, `lock_version: Float!`. Names: any ' +
  'character outside `[_A-Za-z0-9]` becomes `_`, a leading digit gets a `_` prefix; of two properties with the ' +
  'same GraphQL name (`a-b`, `a_b`) only one appears, silently: the one already spelled so (`a_b`), else the ' +
  'smaller name in code-unit order; the other stays in REST, never an error. Each relation adds a field to both ' +
  'types, named by the slug of the other side: to-one a nullable object, to-many a connection with the root ' +
  'arguments (10 rows by default); a hidden side adds nothing. A workspace without definitions has only ' +
  '`_empty: String`. A change of a definition or relation is in the schema of the next request.';

const querying =
  'Filters: `_eq`, `_neq`, `_gt`, `_gte`, `_lt`, `_lte`, `_in`, `_is_null` on every scalar, `_ilike` on ' +
  'strings (SQL ILIKE: `%` any run, `_` one character), `_and`, `_or`, `_not`; an enum field takes only ' +
  '`_in` with the stored strings; a nested object through its `<slug>_<field>Filter`; a relation field through ' +
  "the related type's filter (records linked to at least one match; at most 10,000 related matches). A " +
  'comparison never matches an absent value (except `_is_null: true`); on a list it matches when any element ' +
  'does. `order_by: [{ field: asc }]` or `desc`, nested objects through `<slug>_<field>OrderBy`, ties by id; ' +
  'default order: id ascending (creation order). Indexed properties serve filters and orders at the cost of ' +
  'the page. Paging: `first`/`last` 0..1000 (default 20 at the root, 10 nested); cursors are opaque positions; ' +
  '`after`/`before` take them, `offset` skips rows after `after`; `last` without `before` counts the rows. ' +
  'totalCount is counted only when selected. Limits: depth 12 (a connection costs 3 levels), at most 20,000 ' +
  'records estimated (page sizes multiplied along each path), at most 50,000 related records read. A type ' +
  'the caller cannot read answers an empty connection and a null to-one, without an error.';

const transport =
  'GraphQL over HTTP: a JSON body `{query, variables, operationName}` (null variables and operationName are ' +
  'accepted). The answer is `application/graphql-response+json` when Accept prefers it, else `application/json`. ' +
  'With application/json every GraphQL answer is 200, errors in `errors`; with application/graphql-response+json ' +
  'a request refused before execution (parse or validation error, a limit, an unknown operation, variables that ' +
  'do not fit) is 400 with `errors` and no `data`. Every error has `extensions.code`: GRAPHQL_PARSE_FAILED, ' +
  'GRAPHQL_VALIDATION_FAILED, OPERATION_RESOLUTION_FAILURE, DEPTH_LIMIT_EXCEEDED, COMPLEXITY_LIMIT_EXCEEDED, ' +
  'BAD_USER_INPUT, RESULT_TOO_LARGE, SERVICE_UNAVAILABLE, INTERNAL_SERVER_ERROR. Introspection is enabled. A ' +
  'missing or rejected token is a 401 problem document, a body that is not such an object a 400/422 problem ' +
  'document, as on every REST route. Only queries exist (read only).';

const GraphQLQuerySchema = z
  .object({
    query: z.string().min(1).meta({ description: 'The GraphQL document.' }),
    variables: z
      .record(z.string(), z.unknown())
      .nullable()
      .optional()
      .meta({ description: "Values of the operation's variables." }),
    operationName: z
      .string()
      .nullable()
      .optional()
      .meta({ description: 'The operation to run when the document holds several.' }),
    extensions: z.record(z.string(), z.unknown()).nullable().optional().meta({ description: 'Ignored.' }),
  })
  .meta({
    id: 'GraphQLQuery',
    description: 'A GraphQL-over-HTTP request: the document, its variables and the operation to run.',
  });

const GraphQLErrorSchema = z
  .object({
    message: z.string(),
    locations: z.array(z.object({ line: z.number().int(), column: z.number().int() })).optional(),
    path: z.array(z.union([z.string(), z.number().int()])).optional(),
    extensions: z.object({ code: z.string() }).catchall(z.unknown()).optional(),
  })
  .meta({ id: 'GraphQLError', description: 'A GraphQL error; `extensions.code` classifies it.' });

const GraphQLResultSchema = z
  .object({
    data: z.record(z.string(), z.unknown()).nullable().optional().meta({
      description: 'The result; absent when the request was refused before execution.',
    }),
    errors: z.array(GraphQLErrorSchema).optional(),
  })
  .meta({ id: 'GraphQLResult', description: 'A GraphQL response: data and/or errors.' });

const exampleQuery =
  'query Open($after: String) { invoice(where: { status: { _in: ["OPEN"] } }, order_by: [{ amount: desc }], ' +
  'first: 2, after: $after) { totalCount pageInfo { hasNextPage endCursor } edges { cursor node { id number ' +
  'amount customer { name } } } } }';

export const graphqlRoutes = [
  {
    ...common,
    operationId: 'graphql.schema',
    method: 'GET',
    path: '/api/v2/graphql/schema',
    summary: 'Download the workspace GraphQL schema (SDL)',
    description: `The SDL of the workspace's schema as text/plain, as POST /api/v2/graphql serves it. ${generation}`,
    examples: {
      response:
        'type Query {\n  invoice(where: invoiceFilter, order_by: [invoiceOrderBy!], first: Int, after: String, ' +
        'last: Int, before: String, offset: Int): invoiceConnection!\n}\n\ntype invoice {\n  id: ID!\n' +
        '  created_at: DateTime!\n  updated_at: DateTime!\n  lock_version: Float!\n  number: String!\n' +
        '  amount: Float\n  status: invoice_status\n  billing_email: String\n  customer: customer\n}\n',
    },
    success: {
      status: 200,
      description: 'The SDL as text/plain.',
      schema: z.string(),
      contentType: 'text/plain',
    },
  },
  {
    ...common,
    operationId: 'graphql.query',
    method: 'POST',
    path: '/api/v2/graphql',
    summary: 'Run a GraphQL query',
    description: `Runs a read-only GraphQL query on the workspace's schema. ${generation}\n\n${querying}\n\n${transport}`,
    examples: {
      request: { query: exampleQuery, variables: { after: 'b2Zmc2V0OjE=' }, operationName: 'Open' },
      response: {
        data: {
          invoice: {
            totalCount: 3,
            pageInfo: { hasNextPage: false, endCursor: 'b2Zmc2V0OjI=' },
            edges: [
              {
                cursor: 'b2Zmc2V0OjI=',
                node: {
                  id: '019d2f4b-7a1c-7e30-9c2d-4b8e1f0a6c71',
                  number: 'INV-7',
                  amount: 120.5,
                  customer: { name: 'Acme' },
                },
              },
            ],
          },
        },
      },
    },
    body: GraphQLQuerySchema,
    success: {
      status: 200,
      description:
        'A GraphQL response (application/json or application/graphql-response+json, see above); with ' +
        'application/graphql-response+json a request refused before execution is 400 with the same shape.',
      schema: GraphQLResultSchema,
    },
  },
] as const satisfies readonly RouteSpec[];
