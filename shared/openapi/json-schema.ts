/**
 * zod schemas as the JSON Schemas of the OpenAPI document, tidied the way an integrator's
 * tooling needs them:
 *
 * - integers carry their real bounds and a format: zod's `z.int()` states ±2^53-1 as bounds,
 *   which says nothing; those are dropped, and the format is `int32` when both remaining bounds
 *   fit 32 bits, `int64` otherwise. Numbers are `double`.
 * - a well-known `format` (uuid, date-time, email, …) replaces the checking regex zod puts
 *   beside it.
 * - date, time and date-time strings get an example in UTC, so generated clients and the
 *   reference page show the expected shape.
 * - a `default` declared in a schema's metadata is kept even where zod's input-mode conversion
 *   drops it (parameters that parse a string into a number).
 */
import * as z from 'zod';

export type JsonSchema = Record<string, unknown>;

export const refOf = (id: string) => `#/components/schemas/${id}`;

/** Formats that say all a reader needs; zod's checking regexes beside them are only noise. */
const selfDescribingFormats = new Set(['date-time', 'date', 'time', 'uuid', 'email', 'uri']);

const safeInteger = Number.MAX_SAFE_INTEGER;
const int32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };

const formatExamples: Record<string, string> = {
  'date-time': '2026-03-02T08:15:00Z',
  date: '2026-03-02',
  time: '08:15:00',
};

function tidyNode(schema: JsonSchema): JsonSchema {
  if (typeof schema.format === 'string' && selfDescribingFormats.has(schema.format)) delete schema.pattern;
  if (schema.type === 'integer') {
    if (schema.minimum === -safeInteger) delete schema.minimum;
    if (schema.maximum === safeInteger) delete schema.maximum;
    if (schema.format === undefined) {
      const min = typeof schema.minimum === 'number' ? schema.minimum : Number.NEGATIVE_INFINITY;
      const max = typeof schema.maximum === 'number' ? schema.maximum : Number.POSITIVE_INFINITY;
      schema.format = min >= int32.min && max <= int32.max ? 'int32' : 'int64';
    }
  }
  if (schema.type === 'number' && schema.format === undefined) schema.format = 'double';
  const example = typeof schema.format === 'string' ? formatExamples[schema.format] : undefined;
  if (schema.type === 'string' && example && schema.example === undefined && schema.examples === undefined) {
    schema.example = example;
  }
  return schema;
}

/** Apply the rules above everywhere inside a schema. */
export function tidy<T>(value: T): T {
  if (Array.isArray(value)) return value.map(tidy) as T;
  if (value === null || typeof value !== 'object') return value;
  const schema = Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, tidy(inner)]));
  return tidyNode(schema) as T;
}

/** A schema inline, or a reference when it is a named component. */
export function schemaOf(schema: z.ZodType): JsonSchema {
  const id = z.globalRegistry.get(schema)?.id;
  if (id) return { $ref: refOf(id) };
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  const declaredDefault = z.globalRegistry.get(schema)?.default;
  if (declaredDefault !== undefined && json.default === undefined) json.default = declaredDefault;
  return tidy(json);
}

/** Every named schema (`.meta({ id })`) as a component. */
export function componentSchemas(): Record<string, JsonSchema> {
  const all = z.toJSONSchema(z.globalRegistry, { io: 'input', unrepresentable: 'any', uri: refOf }) as {
    schemas: Record<string, JsonSchema>;
  };
  for (const schema of Object.values(all.schemas)) {
    delete schema.$schema;
    delete schema.$id;
  }
  return tidy(all.schemas);
}
