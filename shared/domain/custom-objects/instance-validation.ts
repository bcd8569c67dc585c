/**
 * Instance data checked against its definition with Ajv (a JSON Schema validator), compiled once
 * per definition version and cached: the definition's properties and required list, with
 * `additionalProperties: false` wherever properties are declared, so an unknown property is
 * refused by name rather than stored where no schema describes it. Each Ajv error becomes a field
 * error at `#/data/<path>`.
 *
 * `required` applies to creation (a merge patch validates the merged result, so a required
 * property cannot be removed either). A blank string anywhere is `field-required`. readOnly properties are the service's addition: they may be
 * set while absent and never changed afterwards, so GraphQL may promise them non-null.
 */
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { FieldError } from '../../schema/field-error.ts';
import type { CustomObjectDefinition } from './definition.schema.ts';

/**
 * Ajv with its formats, loaded by the first instance write rather than at import: loading and
 * building it is about 20 ms of a cold start that reads, definitions and relations, which share
 * the function, never use. Both packages are CommonJS, so the bundle holds the same code either
 * way.
 */
let compiler: Promise<Ajv> | undefined;

function loadCompiler(): Promise<Ajv> {
  compiler ??= (async () => {
    const [{ Ajv }, formatsModule] = await Promise.all([import('ajv'), import('ajv-formats')]);
    // ajv-formats is CommonJS: its default export is the plugin under both module systems.
    const addFormats = ((formatsModule as { default?: unknown }).default ?? formatsModule) as (
      ajv: Ajv,
      formats: string[],
    ) => Ajv;
    return addFormats(new Ajv({ allErrors: true, strict: false }), [
      'uuid',
      'date',
      'time',
      'date-time',
      'email',
      'uri',
    ]);
  })();
  return compiler;
}

type Schema = Record<string, unknown>;

/** A property schema as validated: closed where it declares properties. */
function closed(schema: Schema): Schema {
  const copy: Schema = { ...schema };
  delete copy.readOnly;
  if (copy.properties && typeof copy.properties === 'object') {
    copy.properties = Object.fromEntries(
      Object.entries(copy.properties as Schema).map(([name, value]) => [name, closed(value as Schema)]),
    );
    copy.additionalProperties = false;
  }
  if (copy.items && typeof copy.items === 'object') copy.items = closed(copy.items as Schema);
  if (copy.type === 'array' && copy.items === undefined) copy.items = { type: 'string' };
  return copy;
}

const cache = new Map<string, ValidateFunction>();
const maxCached = 500;

function validatorOf(ajv: Ajv, definition: CustomObjectDefinition): ValidateFunction {
  const version = `${definition.id}#${definition.lock_version}#${definition.updated_at}`;
  let validate = cache.get(version);
  if (!validate) {
    validate = ajv.compile(
      closed({
        type: 'object',
        properties: definition.properties,
        ...(definition.required?.length ? { required: definition.required } : {}),
      }),
    );
    if (cache.size >= maxCached) cache.delete(cache.keys().next().value as string);
    cache.set(version, validate);
  }
  return validate;
}

const pointerPart = (name: string) => name.replaceAll('~', '~0').replaceAll('/', '~1');

function fieldError(error: ErrorObject, slug: string): FieldError {
  const at = `#/data${error.instancePath}`;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return {
        type: 'field-required',
        pointer: `${at}/${pointerPart(String(params.missingProperty))}`,
        detail: 'is required by the definition',
      };
    case 'additionalProperties':
      return {
        type: 'field-unknown',
        pointer: `${at}/${pointerPart(String(params.additionalProperty))}`,
        detail: `is not a property of ${slug}; add it to the definition first`,
      };
    case 'type':
      return { type: 'field-type-invalid', pointer: at, detail: `must be of type ${String(params.type)}` };
    case 'enum':
      return {
        type: 'field-invalid',
        pointer: at,
        detail: `must be one of ${(params.allowedValues as unknown[]).map(String).join(', ')}`,
      };
    case 'format':
      return { type: 'field-invalid', pointer: at, detail: `must be a valid ${String(params.format)}` };
    default:
      return { type: 'field-invalid', pointer: at, detail: error.message ?? 'is invalid' };
  }
}

export type DataErrors = (definition: CustomObjectDefinition, data: unknown) => FieldError[];

/**
 * The check of an instance's data against its definition: the field errors (none: valid). Async
 * only while Ajv loads; the check itself is synchronous, so it runs inside a versioned write.
 */
export async function instanceDataCheck(): Promise<DataErrors> {
  const ajv = await loadCompiler();
  return (definition, data) => {
    const validate = validatorOf(ajv, definition);
    const blanks = blankStrings(data, '#/data');
    if (validate(data)) return blanks;
    const blankAt = new Set(blanks.map((error) => error.pointer));
    const others = (validate.errors ?? [])
      .map((error) => fieldError(error, definition.slug))
      .filter((error) => !blankAt.has(error.pointer));
    return [...blanks, ...others];
  };
}

/**
 * A blank string is never an absent value (SPEC.md, "Blank strings"): wherever instance data
 * holds one, it is `field-required`, whatever the property's schema would say of it.
 */
function blankStrings(value: unknown, pointer: string, found: FieldError[] = []): FieldError[] {
  if (typeof value === 'string') {
    if (value.trim() === '') found.push({ type: 'field-required', pointer, detail: 'must not be blank' });
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => {
      blankStrings(item, `${pointer}/${index}`, found);
    });
  } else if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value))
      blankStrings(inner, `${pointer}/${pointerPart(key)}`, found);
  }
  return found;
}

/** Names of the top-level readOnly properties of a definition. */
export function readOnlyProperties(definition: CustomObjectDefinition): string[] {
  return Object.entries(definition.properties)
    .filter(([, schema]) => (schema as Schema | null)?.readOnly === true)
    .map(([name]) => name);
}
