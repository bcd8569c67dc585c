/**
 * Published names (SPEC.md, Versioning 5 and Conventions "Booleans", "Extensible values"), read
 * from the OpenAPI document the service serves, as a client generator reads it: every schema
 * names a public concept in singular form, list envelopes are `<Concept>List`, write bodies
 * `Create<Concept>` / `Update<Concept>` (`Replace<Concept>` for a PUT), no implementation
 * suffixes; booleans are named descriptively; MIME types are documented strings, not enums.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/api.ts';

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  $ref?: string;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  description?: string;
}

interface Operation {
  operationId: string;
  parameters?: Array<{ name: string; in: string; schema?: JsonSchema }>;
  requestBody?: { content: Record<string, { schema?: JsonSchema }> };
}

let schemas: Record<string, JsonSchema>;
let operations: Array<{ method: string; path: string; operation: Operation }>;

beforeAll(async () => {
  const response = await call('GET', '/api/v2/openapi.json');
  expect(response.status).toBe(200);
  schemas = response.body.components.schemas;
  operations = Object.entries(response.body.paths as Record<string, Record<string, Operation>>).flatMap(
    ([path, byMethod]) =>
      Object.entries(byMethod).map(([method, operation]) => ({ method, path, operation })),
  );
});

const nameOf = (ref: string) => ref.split('/').pop() ?? ref;

/** Nouns that end in s in their singular form (a settings singleton is one record). */
/** Singular nouns that end in s: settings, status, address, and the -ness nouns (Readiness). */
const singularEndingInS = /(Settings|Status|Address|ness)$/;

/**
 * Request bodies that are not a resource's write: the GraphQL query document of GraphQL over
 * HTTP (the API is read only).
 */
/** Bodies of reads that take a body: a GraphQL query, an offline app's pull (its cursor and limits). */
const bodiesThatAreNoWrite = new Set(['GraphQLQuery', 'SyncPull']);

/**
 * Booleans whose names SPEC.md fixes (Webhook endpoint, Tenant upload status, Custom-object
 * relation, Device supported kinds, send-test, AI assistant settings); `enabled` is also the
 * on/off switch of the other settings singletons, named as SPEC.md names the AI assistant's.
 * `reset` is the full-pull switch API-DECISIONS.md names for offline sync's pull, `late` the mark it
 * names for a tour stop whose eta passes its window ("The live day").
 */
const booleansNamedBySpec = new Set([
  'enabled',
  'retry',
  'applied',
  'read_only',
  'required',
  'identity_required',
  'test_was_successful',
  'reset',
  'late',
]);
const descriptiveBoolean = /^(is|has|can|requires)_/;

function isBoolean(schema: JsonSchema): boolean {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return (
    types.includes('boolean') ||
    [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].some((option) => option.type === 'boolean')
  );
}

/** Every property of a schema and of the schemas nested in it (not following $refs). */
function properties(schema: JsonSchema, at: string): Array<{ at: string; name: string; schema: JsonSchema }> {
  const found: Array<{ at: string; name: string; schema: JsonSchema }> = [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    found.push({ at: `${at}.${name}`, name, schema: property });
    found.push(...properties(property, `${at}.${name}`));
  }
  for (const nested of [
    schema.items,
    ...(schema.anyOf ?? []),
    ...(schema.oneOf ?? []),
    ...(schema.allOf ?? []),
  ]) {
    if (nested) found.push(...properties(nested, at));
  }
  return found;
}

describe('Published names: schemas', () => {
  it('names every list envelope <Concept>List, and nothing else', () => {
    const misnamed = Object.entries(schemas)
      .filter(([name, schema]) => (schema.properties?.items?.type === 'array') !== name.endsWith('List'))
      .map(([name]) => name);

    expect(misnamed).toEqual([]);
  });

  it('names concepts in singular form, without Request, Response or DTO', () => {
    const misnamed = Object.keys(schemas).filter(
      (name) =>
        /(Request|Response|Dto|DTO)$/.test(name) || (name.endsWith('s') && !singularEndingInS.test(name)),
    );

    expect(misnamed).toEqual([]);
  });

  it('names every write body Create<Concept>, Update<Concept> or, for a PUT, Replace<Concept>', () => {
    const misnamed = operations.flatMap(({ method, path, operation }) =>
      Object.values(operation.requestBody?.content ?? {}).flatMap(({ schema }) => {
        const name = schema?.$ref ? nameOf(schema.$ref) : `(inline in ${operation.operationId})`;
        const prefix = method === 'put' ? /^Replace[A-Z]/ : /^(Create|Update)[A-Z]/;
        return prefix.test(name) || bodiesThatAreNoWrite.has(name) ? [] : [`${method} ${path}: ${name}`];
      }),
    );

    expect(misnamed).toEqual([]);
  });

  it.each([
    ['CommentCountList', 'CommentCounts'],
    ['CommentMentionSuggestionList', 'CommentMentionSuggestions'],
    ['DeviceCurrentStateList', 'DeviceCurrentStates'],
    ['SupportedDeviceKindList', 'SupportedDeviceKinds'],
    ['CreateCustomObjectRelationBatch', 'CreateCustomObjectRelations'],
    ['CreateCommentReaction', 'AddCommentReaction'],
    ['CreateWebhookTest', 'SendWebhookTest'],
  ])('publishes %s (not %s)', (name, old) => {
    expect(Object.keys(schemas)).toContain(name);
    expect(Object.keys(schemas)).not.toContain(old);
  });
});

describe('Published names: booleans', () => {
  it('names every boolean property descriptively (is_, has_, can_, requires_) or as SPEC.md does', () => {
    const misnamed = Object.entries(schemas).flatMap(([schemaName, schema]) =>
      properties(schema, schemaName)
        .filter(({ schema: property }) => isBoolean(property))
        .filter(({ name }) => !descriptiveBoolean.test(name) && !booleansNamedBySpec.has(name))
        .map(({ at }) => at),
    );

    expect(misnamed).toEqual([]);
  });

  it('names every boolean query parameter descriptively', () => {
    const misnamed = operations.flatMap(({ method, path, operation }) =>
      (operation.parameters ?? [])
        .filter((parameter) => parameter.in === 'query' && parameter.schema && isBoolean(parameter.schema))
        .filter((parameter) => !descriptiveBoolean.test(parameter.name))
        .map((parameter) => `${method} ${path} ?${parameter.name}`),
    );

    expect(misnamed).toEqual([]);
  });

  it('publishes is_active on vehicles and is_billing_locked in the billing status', () => {
    expect(Object.keys(schemas.Vehicle?.properties ?? {})).toContain('is_active');
    expect(Object.keys(schemas.Vehicle?.properties ?? {})).not.toContain('active');
    expect(Object.keys(schemas.UpdateVehicle?.properties ?? {})).toContain('is_active');
    expect(Object.keys(schemas.BillingStatus?.properties ?? {})).toContain('is_billing_locked');
    const list = operations.find(({ operation }) => operation.operationId === 'vehicles.list');
    expect(list?.operation.parameters?.map((parameter) => parameter.name)).toContain('is_active');
  });
});

describe('Published names: extensible values', () => {
  it.each(['CreateLogoUpload', 'CreateFaviconUpload', 'CreateCommentAttachmentUpload'])(
    'publishes the mime_type of %s as a string with the accepted types described, not an enum',
    (name) => {
      const mimeType = schemas[name]?.properties?.mime_type;

      expect(mimeType?.type).toBe('string');
      expect(mimeType).not.toHaveProperty('enum');
      expect(mimeType?.description).toMatch(/image\/png.*any other is 422/);
    },
  );
});
