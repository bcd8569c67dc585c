/**
 * Custom-object instance rules: data validated against the definition (instance-validation.ts),
 * merge-patch edits with lock_version, readOnly properties set once, access by grant and, for
 * PROTECTED types, by the permission matrix (instance-access.ts), relations given at creation
 * (relation.service.ts `creationLinks`), and the events custom_object.<slug>.created / updated /
 * deleted, whose object carries `definition_id` (stable) and `definition_slug` (SPEC.md,
 * "Custom-object subscriptions").
 */
import { v7 as uuidv7 } from 'uuid';
import type { Actor } from '../../auth/actor.ts';
import { type DomainEvent, domainEvent, previousAttributes } from '../../events/domain-event.ts';
import type { EventType } from '../../events/event-registry.ts';
import type { FieldError } from '../../schema/field-error.ts';
import { defaultPageSize, pageOf } from '../../schema/list.ts';
import { deleteExisting, updateVersioned } from '../versioned-write.ts';
import { creationLinks } from './association.service.ts';
import { CustomObjectError } from './custom-object-error.ts';
import type { CustomObjectDefinition } from './definition.schema.ts';
import { findDefinition } from './definition.service.ts';
import { type CustomObjectInstance, jsonSchemaDialect } from './instance.schema.ts';
import { type InstanceItem, instanceOf, instanceStore, type StoredInstance } from './instance.store.ts';
import { instanceAccess } from './instance-access.ts';
import { instanceList } from './instance-list.ts';
import { type InstanceOrder, queryInstances } from './instance-query.ts';
import { instanceDataCheck, readOnlyProperties } from './instance-validation.ts';
import { unlinkInstance } from './relation-purge.ts';

type Data = Record<string, unknown>;

/** The label of an instance: its name or title, else its first text property with a value, else its id. */
export function displayValue(
  definition: CustomObjectDefinition,
  instance: Pick<StoredInstance, 'id' | 'data'>,
) {
  for (const preferred of ['name', 'title', 'display_name']) {
    const value = instance.data[preferred];
    if (typeof value === 'string' && value.trim()) return value;
  }
  for (const [name, schema] of Object.entries(definition.properties)) {
    const value = instance.data[name];
    if ((schema as { type?: unknown } | null)?.type === 'string' && typeof value === 'string' && value.trim())
      return value;
  }
  return instance.id;
}

export function schemaRef(definition: CustomObjectDefinition) {
  return {
    $schema: jsonSchemaDialect,
    slug: definition.slug,
    title: definition.title,
    type: 'object' as const,
  };
}

export function toInstance(
  definition: CustomObjectDefinition,
  record: InstanceItem | StoredInstance,
): CustomObjectInstance {
  const instance = record as StoredInstance;
  return {
    schema: schemaRef(definition),
    data: {
      id: instance.id,
      created_at: instance.created_at,
      updated_at: instance.updated_at,
      ...instance.data,
    },
    display_value: displayValue(definition, instance),
    lock_version: instance.lock_version,
  };
}

const verbs = ['created', 'updated', 'deleted'] as const;

/** An event of an instance: `custom_object.<slug>.<verb>`, naming the definition by id and slug. */
function instanceEvent(
  ctx: Actor,
  definition: CustomObjectDefinition,
  verb: (typeof verbs)[number],
  instance: StoredInstance,
  previous?: Record<string, unknown>,
): DomainEvent {
  const object = {
    ...toInstance(definition, instance),
    definition_id: definition.id,
    definition_slug: definition.slug,
  };
  return domainEvent(
    ctx,
    `custom_object.${definition.slug}.${verb}` as EventType,
    { type: `custom_object.${definition.slug}`, id: instance.id },
    object,
    previous,
  );
}

function accessDenied(grant: string, detail: string): CustomObjectError {
  return new CustomObjectError('forbidden', {
    detail,
    data: { reason: 'missing_grant', required_grants: [grant] },
  });
}

/** The definition a path names, readable (or writable) by the caller; 404 when unknown. */
export async function definitionFor(
  ctx: Actor,
  slug: string,
  need: 'read' | 'write',
): Promise<CustomObjectDefinition> {
  const definition = await findDefinition(ctx.workspaceId, slug);
  if (!definition) {
    throw new CustomObjectError('not-found', { detail: `No custom-object definition has the slug ${slug}.` });
  }
  const access = await instanceAccess(ctx.principal, ctx.workspaceId, definition);
  if (need === 'read' && !access.read) {
    throw accessDenied(
      'custom-objects:instances:read',
      `Reading ${slug} records needs custom-objects:instances:read and, for a protected type, an entry of its permission matrix.`,
    );
  }
  if (need === 'write' && !access.write) {
    throw accessDenied(
      'custom-objects:instances:update',
      `Writing ${slug} records needs custom-objects:instances:update and, for a protected type, a write entry of its permission matrix.`,
    );
  }
  return definition;
}

async function findInstance(ctx: Actor, definition: CustomObjectDefinition, id: string) {
  const record = await instanceStore.of(ctx).get(definition.id, id);
  if (!record) throw new CustomObjectError('not-found');
  return record;
}

export async function getInstance(ctx: Actor, slug: string, id: string) {
  const definition = await definitionFor(ctx, slug, 'read');
  return toInstance(definition, await findInstance(ctx, definition, id));
}

/** Sort orders of a REST list, checked against the definition's orders (422 at `#/sort/<i>`). */
function sortOrders(
  definition: CustomObjectDefinition,
  sort: readonly string[] | undefined,
): InstanceOrder[] {
  const orders = instanceList(definition).orders;
  const errors: FieldError[] = [];
  const parsed: InstanceOrder[] = [];
  (sort ?? []).forEach((value, index) => {
    const [field = '', direction = 'asc', ...rest] = value.split(':');
    if (!orders[field] || rest.length > 0) {
      errors.push({
        type: 'field-invalid',
        pointer: `#/sort/${index}`,
        detail: `unknown sort field; sortable fields: ${Object.keys(orders).join(', ')}`,
      });
    } else if (direction !== 'asc' && direction !== 'desc') {
      errors.push({
        type: 'field-invalid',
        pointer: `#/sort/${index}`,
        detail: 'direction must be asc or desc',
      });
    } else parsed.push({ field, direction });
  });
  if (errors.length > 0) throw new CustomObjectError('invalid', { fields: errors });
  return parsed;
}

export async function listInstances(
  ctx: Actor,
  slug: string,
  query: { page?: number; size?: number; sort?: string[] },
) {
  const definition = await definitionFor(ctx, slug, 'read');
  const request = { page: query.page ?? 0, size: query.size ?? defaultPageSize };
  const { items, total } = await queryInstances(ctx, definition, {
    order: sortOrders(definition, query.sort),
    offset: request.page * request.size,
    limit: request.size,
    withTotal: true,
  });
  return {
    items: items.map((item) => toInstance(definition, item)),
    schema: schemaRef(definition),
    page: pageOf(total ?? 0, request),
  };
}

/** One error per pointer: a missing required readOnly property is one mistake, not two. */
function distinct(errors: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return errors.filter((error) => !seen.has(error.pointer) && seen.add(error.pointer));
}

/** readOnly properties: required at creation (GraphQL promises them non-null), never changed once set. */
function readOnlyErrors(
  definition: CustomObjectDefinition,
  before: Data | undefined,
  after: Data,
): FieldError[] {
  const errors: FieldError[] = [];
  for (const name of readOnlyProperties(definition)) {
    const pointer = `#/data/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    if (!before && after[name] === undefined) {
      errors.push({
        type: 'field-required',
        pointer,
        detail: 'is read-only: it is set at creation and required then',
      });
    } else if (
      before &&
      before[name] !== undefined &&
      JSON.stringify(before[name]) !== JSON.stringify(after[name])
    ) {
      errors.push({ type: 'field-invalid', pointer, detail: 'is read-only: it cannot change once set' });
    }
  }
  return errors;
}

export async function createInstance(
  ctx: Actor,
  slug: string,
  body: { data: Data; relations?: Record<string, unknown> },
): Promise<CustomObjectInstance> {
  const definition = await definitionFor(ctx, slug, 'write');
  const dataErrors = await instanceDataCheck();
  const errors = distinct([
    ...dataErrors(definition, body.data),
    ...readOnlyErrors(definition, undefined, body.data),
  ]);
  if (errors.length > 0) throw new CustomObjectError('invalid', { fields: errors });
  const now = new Date().toISOString();
  const instance: StoredInstance = {
    id: uuidv7(),
    definition_id: definition.id,
    data: body.data,
    created_at: now,
    updated_at: now,
    lock_version: 0,
  };
  const { writes, links, explain } = await creationLinks(
    ctx.workspaceId,
    definition,
    instance.id,
    body.relations,
    ctx.principal,
  );
  try {
    await instanceStore
      .of(ctx)
      .create(
        definition,
        { ...instance, ...links } as StoredInstance,
        instanceEvent(ctx, definition, 'created', instance),
        writes,
      );
  } catch (error) {
    // A linked record changed between the check and the write: the exact 422, checked again.
    throw (await explain(error)) ?? error;
  }
  return toInstance(definition, instance);
}

/** RFC 7386: objects merge recursively, null removes, anything else replaces. */
export function mergeData(target: Data, patch: Data): Data {
  const next: Data = { ...target };
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete next[name];
    else if (typeof value === 'object' && !Array.isArray(value)) {
      const current = next[name];
      next[name] = mergeData(
        typeof current === 'object' && current !== null && !Array.isArray(current) ? (current as Data) : {},
        value as Data,
      );
    } else next[name] = value;
  }
  return next;
}

export async function updateInstance(
  ctx: Actor,
  slug: string,
  id: string,
  body: { data?: Data; lock_version?: number | null },
): Promise<CustomObjectInstance> {
  const definition = await definitionFor(ctx, slug, 'write');
  const dataErrors = await instanceDataCheck();
  const { after } = await updateVersioned<StoredInstance>({
    key: `instance:${ctx.workspaceId}:${id}`,
    load: async () => {
      const record = await instanceStore.of(ctx).get(definition.id, id);
      return record ? instanceOf(record) : undefined;
    },
    expectedVersion: body.lock_version,
    apply: (current) => {
      const data = body.data ? mergeData(current.data, body.data) : current.data;
      const errors = distinct([
        ...dataErrors(definition, data),
        ...readOnlyErrors(definition, current.data, data),
      ]);
      if (errors.length > 0) throw new CustomObjectError('invalid', { fields: errors });
      return { ...current, data };
    },
    save: (next, current) =>
      instanceStore
        .of(ctx)
        .update(
          definition,
          next,
          current,
          instanceEvent(ctx, definition, 'updated', next, previousAttributes(current.data, next.data)),
        ),
  });
  return toInstance(definition, after);
}

export async function deleteInstance(ctx: Actor, slug: string, id: string): Promise<void> {
  const definition = await definitionFor(ctx, slug, 'write');
  let removed: InstanceItem | undefined;
  await deleteExisting<StoredInstance>({
    load: async () => {
      removed = await instanceStore.of(ctx).get(definition.id, id);
      return removed ? instanceOf(removed) : undefined;
    },
    remove: (current) =>
      instanceStore.of(ctx).remove(definition, current, instanceEvent(ctx, definition, 'deleted', current)),
  });
  // Its links: the other instances forget it (relation.service.ts); readers skip ids that are gone.
  if (removed) await unlinkInstance(ctx.workspaceId, definition, removed);
}
