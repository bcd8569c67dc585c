/**
 * The rules a custom-object definition must meet when it is saved (issue 14): the slug's syntax
 * and its GraphQL names, and the JSON-Schema keywords the service supports (type, format,
 * readOnly, required, enum, items, properties, plus title and description), each checked where
 * it stands, so a 422 points at the offending field (`#/properties/amount/type`) and says how to
 * fix it. Anything accepted here generates a valid GraphQL schema (graphql-names.ts).
 *
 * Deliberately not refused (SPEC.md, "Name sanitizing"): two property names that sanitize to the
 * same GraphQL name. Only one is reachable through GraphQL; both stay in REST.
 */
import type { FieldError } from '../../schema/field-error.ts';
import { graphqlName, slugCollision, systemFields } from './graphql-names.ts';

export const slugPattern = /^[a-z][a-z0-9_]{0,62}$/;
export const propertyTypes = ['string', 'number', 'integer', 'boolean', 'array', 'object'] as const;
export const stringFormats = ['uuid', 'date', 'time', 'date-time', 'email', 'uri'] as const;
/** Keywords of a property schema (and of `items`). */
export const propertyKeywords = [
  'type',
  'format',
  'readOnly',
  'enum',
  'items',
  'properties',
  'required',
  'title',
  'description',
] as const;
/** Nested objects deeper than this are refused: their filters and order inputs nest as deep. */
export const maxDepth = 5;
export const maxProperties = 200;

/** A slug a client meant, made valid: lower case, `_` for anything else, a letter first. */
export function suggestedSlug(slug: string): string {
  const cleaned = slug
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '');
  const lettered = /^[a-z]/.test(cleaned) ? cleaned : `x_${cleaned}`;
  return lettered.slice(0, 63) || 'my_object';
}

const invalid = (pointer: string, detail: string): FieldError => ({ type: 'field-invalid', pointer, detail });

/** Errors of a definition's slug, given the other slugs of the workspace. */
export function slugErrors(slug: unknown, otherSlugs: readonly string[]): FieldError[] {
  if (typeof slug !== 'string' || !slugPattern.test(slug)) {
    const hint = typeof slug === 'string' ? `, e.g. ${suggestedSlug(slug)}` : '';
    return [
      invalid(
        '#/slug',
        `must start with a lower-case letter and hold only a-z, 0-9 and _ (at most 63 characters)${hint}`,
      ),
    ];
  }
  const collision = slugCollision(slug, otherSlugs);
  return collision ? [invalid('#/slug', `${collision}; choose another slug, e.g. ${slug}_record`)] : [];
}

type Schema = Record<string, unknown>;

const isObject = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Errors of the JSON-Schema part of a definition: root `type: object`, its properties and required. */
export function schemaErrors(definition: Schema): FieldError[] {
  const errors: FieldError[] = [];
  if (definition.type !== 'object')
    errors.push(invalid('#/type', 'must be "object": a definition describes records'));
  if (definition.properties === undefined) return errors;
  errors.push(...objectErrors(definition, '#', 1, true));
  return errors;
}

function objectErrors(schema: Schema, pointer: string, depth: number, root: boolean): FieldError[] {
  const errors: FieldError[] = [];
  const properties = schema.properties;
  if (!isObject(properties))
    return [invalid(`${pointer}/properties`, 'must be an object of property schemas')];
  const names = Object.keys(properties);
  if (names.length > maxProperties) {
    errors.push(
      invalid(`${pointer}/properties`, `holds ${names.length} properties; at most ${maxProperties}`),
    );
  }
  for (const name of names) {
    const at = `${pointer}/properties/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    if (name.length === 0 || name.length > 64)
      errors.push(invalid(at, 'a property name holds 1 to 64 characters'));
    const system = root ? systemFields.find((field) => field === graphqlName(name)) : undefined;
    if (system) {
      errors.push(
        invalid(
          at,
          `collides with the system field ${system} every record has; rename it, e.g. ${name}_value`,
        ),
      );
    }
    errors.push(...propertyErrors(properties[name], at, depth));
  }
  if (schema.required !== undefined) {
    const required = schema.required;
    if (!Array.isArray(required) || required.some((entry) => typeof entry !== 'string')) {
      errors.push(invalid(`${pointer}/required`, 'must be an array of property names'));
    } else {
      required.forEach((entry, index) => {
        if (!names.includes(entry as string)) {
          errors.push(invalid(`${pointer}/required/${index}`, `names no property (${String(entry)})`));
        }
      });
    }
  }
  return errors;
}

function propertyErrors(value: unknown, pointer: string, depth: number): FieldError[] {
  if (!isObject(value))
    return [invalid(pointer, 'must be a property schema object such as {"type": "string"}')];
  const errors: FieldError[] = [];
  for (const keyword of Object.keys(value)) {
    if (!(propertyKeywords as readonly string[]).includes(keyword)) {
      errors.push(
        invalid(
          `${pointer}/${keyword}`,
          `is not a supported keyword; supported: ${propertyKeywords.join(', ')}`,
        ),
      );
    }
  }
  const type = value.type;
  if (!(propertyTypes as readonly unknown[]).includes(type)) {
    errors.push(invalid(`${pointer}/type`, `must be one of ${propertyTypes.join(', ')}`));
    return errors;
  }
  if (
    value.format !== undefined &&
    (type !== 'string' || !(stringFormats as readonly unknown[]).includes(value.format))
  ) {
    errors.push(
      invalid(`${pointer}/format`, `applies to strings only and is one of ${stringFormats.join(', ')}`),
    );
  }
  if (value.readOnly !== undefined && typeof value.readOnly !== 'boolean') {
    errors.push(invalid(`${pointer}/readOnly`, 'must be true or false'));
  }
  for (const text of ['title', 'description'] as const) {
    if (value[text] !== undefined && typeof value[text] !== 'string') {
      errors.push(invalid(`${pointer}/${text}`, 'must be a string'));
    }
  }
  if (value.enum !== undefined) errors.push(...enumErrors(value.enum, type, `${pointer}/enum`));
  if (type === 'array') {
    if (value.items === undefined) {
      // Items default to strings (SPEC.md, scalar mapping).
    } else if (isObject(value.items) && value.items.type === 'array') {
      errors.push(
        invalid(`${pointer}/items/type`, 'arrays of arrays are not supported; use an array of objects'),
      );
    } else {
      errors.push(...propertyErrors(value.items, `${pointer}/items`, depth));
    }
  } else if (value.items !== undefined) {
    errors.push(invalid(`${pointer}/items`, 'applies to arrays only'));
  }
  if (type === 'object') {
    if (depth >= maxDepth) {
      errors.push(invalid(pointer, `nests objects deeper than ${maxDepth} levels`));
    } else if (value.properties !== undefined) {
      errors.push(...objectErrors(value, pointer, depth + 1, false));
    }
  } else {
    for (const keyword of ['properties', 'required'] as const) {
      if (value[keyword] !== undefined)
        errors.push(invalid(`${pointer}/${keyword}`, 'applies to objects only'));
    }
  }
  return errors;
}

/** An enum becomes a GraphQL enum: its values must be distinct strings that stay distinct as names. */
function enumErrors(values: unknown, type: unknown, pointer: string): FieldError[] {
  if (type !== 'string') return [invalid(pointer, 'applies to string properties only')];
  if (!Array.isArray(values) || values.length === 0 || values.some((value) => typeof value !== 'string')) {
    return [invalid(pointer, 'must be a non-empty array of strings')];
  }
  const errors: FieldError[] = [];
  const seen = new Map<string, string>();
  (values as string[]).forEach((value, index) => {
    const name = graphqlName(value);
    if (['true', 'false', 'null'].includes(name)) {
      errors.push(
        invalid(`${pointer}/${index}`, `${value} cannot be a GraphQL enum value; use e.g. ${value}_value`),
      );
    }
    const earlier = seen.get(name);
    if (earlier !== undefined) {
      errors.push(
        invalid(
          `${pointer}/${index}`,
          `becomes the GraphQL enum value ${name}, as ${earlier} does; make them differ`,
        ),
      );
    }
    seen.set(name, value);
  });
  return errors;
}
