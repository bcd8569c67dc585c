/**
 * Custom-object definition rules: a slug unique per workspace (a guard item per slug, created,
 * moved and deleted in the definition's transactions, so two containers cannot take one slug),
 * renamable (the id stays: events and webhook subscriptions refer to the id); the JSON-Schema part
 * checked by definition-rules.ts when saved, top-level keywords other than the supported ones
 * refused; merge-patch edits where `properties` merges per property (null removes one).
 * Events custom_object_definition.created / updated / deleted.
 *
 * Instances, relations and the permission matrix follow (issue 14); deleting a definition will
 * then remove them too.
 */
import { v7 as uuidv7 } from 'uuid';
import type { Actor } from '../../auth/actor.ts';
import { DataError } from '../../data/data-error.ts';
import { domainEvent, previousAttributes } from '../../events/domain-event.ts';
import type { FieldError } from '../../schema/field-error.ts';
import { defaultPageSize, pageOf } from '../../schema/list.ts';
import { deleteExisting, updateVersioned } from '../versioned-write.ts';
import { CustomObjectError } from './custom-object-error.ts';
import type { CustomObjectDefinition } from './definition.schema.ts';
import { definitionSlugs, definitionStore } from './definition.store.ts';
import { schemaErrors, slugErrors } from './definition-rules.ts';
import { graphqlName, sharedTypeName } from './graphql-names.ts';
import { instanceStore } from './instance.store.ts';
import { maxIndexedProperties } from './instance-list.ts';
import { revisionWrite } from './model-revision.store.ts';
import { relationSlugsOf } from './relation.service.ts';

/** The fields a definition body may carry besides lock_version. */
const topLevel = [
  'slug',
  'title',
  'access_class',
  'type',
  'properties',
  'required',
  'indexed_properties',
  'description',
];

const resource = (id: string) => ({ type: 'custom_object_definition', id });

export function toDefinition(stored: CustomObjectDefinition): CustomObjectDefinition {
  return {
    id: stored.id,
    slug: stored.slug,
    title: stored.title,
    access_class: stored.access_class,
    type: 'object',
    properties: stored.properties,
    ...(stored.required?.length ? { required: stored.required } : {}),
    ...(stored.indexed_properties?.length ? { indexed_properties: stored.indexed_properties } : {}),
    ...(stored.description !== undefined ? { description: stored.description } : {}),
    created_at: stored.created_at,
    updated_at: stored.updated_at,
    lock_version: stored.lock_version,
  };
}

/** The definition a slug names in the workspace (its guard, then the item). */
export async function findDefinition(
  workspaceId: string,
  slug: string,
): Promise<CustomObjectDefinition | undefined> {
  const holder = await definitionSlugs.of(workspaceId).holder(slug);
  if (holder === undefined) return undefined;
  const definition = await definitionStore.of(workspaceId).get(holder);
  return definition?.slug === slug ? definition : undefined;
}

function unknownKeywords(body: Record<string, unknown>): FieldError[] {
  return Object.keys(body)
    .filter((key) => key !== 'lock_version' && !topLevel.includes(key))
    .map((key) => ({
      type: 'field-invalid' as const,
      pointer: `#/${key}`,
      detail: `is not a supported keyword of a definition; supported: ${topLevel.join(', ')}`,
    }));
}

async function validated(
  workspaceId: string,
  definition: CustomObjectDefinition,
  raw: Record<string, unknown>,
) {
  // A workspace holds hundreds of definitions at most: one Query reads them all. One that has
  // this slug already is a 409 (the slug guard), not a name collision.
  const others = (await definitionStore.of(workspaceId).list()).filter(
    (other) => other.id !== definition.id && other.slug !== definition.slug,
  );
  // Relation fields reach this type under their slugs: a property may not take one.
  const relationSlugs = new Set(await relationSlugsOf(workspaceId, definition.id));
  const slugErrorsFound = slugErrors(
    definition.slug,
    others.map((other) => other.slug),
  );
  // Enum and nested-object types (`<slug>_<field>…`) may meet another definition's names too.
  const shared = slugErrorsFound.length === 0 ? sharedTypeName(definition, others) : undefined;
  const errors = [
    ...unknownKeywords(raw),
    ...slugErrorsFound,
    ...(shared
      ? [
          {
            type: 'field-invalid' as const,
            pointer: '#/slug',
            detail: `would generate the GraphQL type ${shared.name}, which definition ${shared.other} generates too; choose another slug or property name`,
          },
        ]
      : []),
    ...schemaErrors({
      type: definition.type,
      properties: definition.properties,
      ...(definition.required ? { required: definition.required } : {}),
    }),
    ...indexedErrors(definition),
    ...Object.keys(definition.properties)
      .filter((name) => relationSlugs.has(name) || relationSlugs.has(graphqlName(name)))
      .map((name) => ({
        type: 'field-invalid' as const,
        pointer: `#/properties/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`,
        detail: `is the name under which a relation reaches this type; rename the property, e.g. ${name}_value`,
      })),
  ];
  if (errors.length > 0) throw new CustomObjectError('invalid', { fields: errors });
}

/** Indexed properties: at most 3, distinct, each a top-level scalar property. */
function indexedErrors(definition: CustomObjectDefinition): FieldError[] {
  const indexed = definition.indexed_properties ?? [];
  const errors: FieldError[] = [];
  if (indexed.length > maxIndexedProperties) {
    errors.push({
      type: 'field-invalid',
      pointer: '#/indexed_properties',
      detail: `holds ${indexed.length} properties; at most ${maxIndexedProperties} are indexed`,
    });
  }
  indexed.forEach((name, index) => {
    const type = (definition.properties[name] as { type?: unknown } | undefined)?.type;
    const pointer = `#/indexed_properties/${index}`;
    if (indexed.indexOf(name) !== index) {
      errors.push({ type: 'field-invalid', pointer, detail: `names ${name} twice` });
    } else if (type === undefined) {
      errors.push({ type: 'field-invalid', pointer, detail: `names no top-level property (${name})` });
    } else if (!['string', 'number', 'integer', 'boolean'].includes(String(type))) {
      errors.push({
        type: 'field-invalid',
        pointer,
        detail: `${name} is of type ${String(type)}; only string, number, integer and boolean properties are indexed`,
      });
    }
  });
  return errors;
}

/** What the instances' index attributes depend on: the indexed properties and their types. */
function indexLayout(definition: CustomObjectDefinition): string {
  return JSON.stringify(
    (definition.indexed_properties ?? []).map((name) => [
      name,
      (definition.properties[name] as { type?: unknown } | undefined)?.type,
    ]),
  );
}

function slugTaken(slug: string): CustomObjectError {
  return new CustomObjectError('already-exists', {
    detail: `Another definition of this workspace already has the slug ${slug}.`,
    fields: [{ type: 'field-invalid', pointer: '#/slug', detail: 'is already used by another definition' }],
  });
}

async function guarded(slug: string, write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (error) {
    if (error instanceof DataError && error.code === 'already-exists') throw slugTaken(slug);
    throw error;
  }
}

export async function listDefinitions(
  ctx: Actor,
  query: { page?: number; size?: number; sort?: Array<{ field: string; direction: 'asc' | 'desc' }> },
) {
  const request = { page: query.page ?? 0, size: query.size ?? defaultPageSize };
  const { items, total } = await definitionStore.of(ctx).page({
    order: query.sort?.length ? query.sort : [{ field: 'slug', direction: 'asc' }],
    ...request,
  });
  return { items: items.map(toDefinition), page: pageOf(total, request) };
}

export async function getDefinition(ctx: Actor, slug: string): Promise<CustomObjectDefinition> {
  const definition = await findDefinition(ctx.workspaceId, slug);
  if (!definition) throw new CustomObjectError('not-found');
  return toDefinition(definition);
}

export async function createDefinition(
  ctx: Actor,
  body: Record<string, unknown>,
): Promise<CustomObjectDefinition> {
  const now = new Date().toISOString();
  const definition: CustomObjectDefinition = {
    id: uuidv7(),
    slug: String(body.slug),
    title: String(body.title),
    access_class: (body.access_class as CustomObjectDefinition['access_class']) ?? 'STANDARD',
    type: 'object',
    properties: (body.properties as Record<string, unknown>) ?? {},
    ...(Array.isArray(body.required) && body.required.length ? { required: body.required as string[] } : {}),
    ...(Array.isArray(body.indexed_properties) && body.indexed_properties.length
      ? { indexed_properties: body.indexed_properties as string[] }
      : {}),
    ...(typeof body.description === 'string' ? { description: body.description } : {}),
    created_at: now,
    updated_at: now,
    lock_version: 0,
  };
  await validated(ctx.workspaceId, definition, body);
  if (await definitionSlugs.of(ctx).holder(definition.slug)) throw slugTaken(definition.slug);
  const published = toDefinition(definition);
  await guarded(definition.slug, () =>
    definitionStore
      .of(ctx)
      .create(
        definition,
        domainEvent(ctx, 'custom_object_definition.created', resource(definition.id), published),
        [definitionSlugs.of(ctx).claimWrite(definition), revisionWrite(ctx.workspaceId)],
      ),
  );
  return published;
}

/** RFC 7386 on `properties`: a property set to null is removed, any other value replaces it. */
function mergedProperties(current: Record<string, unknown>, patch: Record<string, unknown> | undefined) {
  if (!patch) return current;
  const next = { ...current };
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete next[name];
    else next[name] = value;
  }
  return next;
}

export async function updateDefinition(
  ctx: Actor,
  slug: string,
  body: Record<string, unknown>,
): Promise<CustomObjectDefinition> {
  const found = await findDefinition(ctx.workspaceId, slug);
  if (!found) throw new CustomObjectError('not-found');
  const { after } = await updateVersioned<CustomObjectDefinition>({
    key: `definition:${ctx.workspaceId}:${found.id}`,
    load: () => definitionStore.of(ctx).get(found.id),
    expectedVersion: body.lock_version as number | null | undefined,
    apply: (stored) => {
      const next: CustomObjectDefinition = {
        ...stored,
        ...(typeof body.slug === 'string' ? { slug: body.slug } : {}),
        ...(typeof body.title === 'string' ? { title: body.title } : {}),
        ...(typeof body.access_class === 'string'
          ? { access_class: body.access_class as CustomObjectDefinition['access_class'] }
          : {}),
        properties: mergedProperties(
          stored.properties,
          body.properties as Record<string, unknown> | undefined,
        ),
      };
      if (body.required === null) delete next.required;
      else if (Array.isArray(body.required)) next.required = body.required as string[];
      if (body.indexed_properties === null) delete next.indexed_properties;
      else if (Array.isArray(body.indexed_properties))
        next.indexed_properties = body.indexed_properties as string[];
      if (body.description === null) delete next.description;
      else if (typeof body.description === 'string') next.description = body.description;
      return next;
    },
    save: async (next, stored) => {
      await validated(ctx.workspaceId, next, body);
      if (indexLayout(next) !== indexLayout(stored) && (await instanceStore.of(ctx).count(stored.id)) > 0) {
        throw new CustomObjectError('invalid', {
          fields: [
            {
              type: 'field-invalid',
              pointer: body.indexed_properties !== undefined ? '#/indexed_properties' : '#/properties',
              detail:
                'the indexed properties (or their types) can change only while the definition has no instances; ' +
                'create a new definition with the new indexes and move the instances',
            },
          ],
        });
      }
      const renamed = next.slug !== stored.slug;
      await guarded(next.slug, () =>
        definitionStore
          .of(ctx)
          .replace(
            next,
            stored,
            domainEvent(
              ctx,
              'custom_object_definition.updated',
              resource(next.id),
              toDefinition(next),
              previousAttributes(toDefinition(stored), toDefinition(next)),
            ),
            [
              revisionWrite(ctx.workspaceId),
              ...(renamed
                ? [
                    definitionSlugs.of(ctx).releaseWrite(stored.slug),
                    definitionSlugs.of(ctx).claimWrite(next),
                  ]
                : []),
            ],
          ),
      );
    },
  });
  return toDefinition(after);
}

export async function deleteDefinition(ctx: Actor, slug: string): Promise<void> {
  const found = await findDefinition(ctx.workspaceId, slug);
  if (!found) throw new CustomObjectError('not-found');
  await deleteExisting<CustomObjectDefinition>({
    load: () => definitionStore.of(ctx).get(found.id),
    remove: (current) =>
      definitionStore
        .of(ctx)
        .remove(
          current,
          domainEvent(ctx, 'custom_object_definition.deleted', resource(current.id), toDefinition(current)),
          [definitionSlugs.of(ctx).discardWrite(current.slug), revisionWrite(ctx.workspaceId)],
        ),
  });
}
