/**
 * Custom-object relations (SPEC.md, "Custom-object relation"): batch creation, the relations of a
 * definition, deletion. Associations are association.service.ts; removals relation-purge.ts.
 *
 * - A relation joins two definitions, sides a and b. A side's `slug` is the name under which the
 *   OTHER side reaches it: the field the relation adds to the other side's type. So a side's slug
 *   must be free on the other side's type: no property, no system field, no other relation's
 *   field (the batch's own included; both slugs of a self-relation land on the one type, so they
 *   differ). That makes a relation slug unambiguous per type, self-relations included.
 * - Shape errors of a relation in a batch are 400 `location-relation-*` (one type per document:
 *   the first error's, in body order; errors[] lists every one at its pointer). A batch is
 *   created whole or not at all, with one event per relation; at most 500 relations per workspace.
 * - Sides are stored by definition id (renames keep the relation) and rendered with the current
 *   slugs. Every relation create and delete adds 1 to the workspace's model revision.
 * - Deleting a relation removes its associations: up to 200 at once, the rest in steps
 *   (relation-purge.ts), driven by custom_object_relation.association_purge events (the first
 *   written in the delete's own transaction, so nothing is left behind).
 */
import { v7 as uuidv7 } from 'uuid';
import type { Actor } from '../../auth/actor.ts';
import { outboxWrite } from '../../data/outbox.ts';
import { domainEvent } from '../../events/domain-event.ts';
import type { FieldError } from '../../schema/field-error.ts';
import { pageOf, paginate } from '../../schema/list.ts';
import { deleteExisting } from '../versioned-write.ts';
import { CustomObjectError, type CustomObjectErrorCode } from './custom-object-error.ts';
import type { CustomObjectDefinition } from './definition.schema.ts';
import { definitionStore } from './definition.store.ts';
import { graphqlName, systemFields } from './graphql-names.ts';
import { revisionWrite } from './model-revision.store.ts';
import {
  type CreateRelation,
  maxRelationsPerWorkspace,
  type Relation,
  type RelationShapeIssue,
  type RelationSide,
  relationShapeIssues,
  type StoredRelation,
  type StoredRelationSide,
} from './relation.schema.ts';
import { relationStore } from './relation.store.ts';
import { purgeAssociations, purgeEvent, syncPurgeLimit } from './relation-purge.ts';
import { otherSide, resource, type Side, sides } from './relation-sides.ts';

export { otherSide, resource, type Side, sides };

export const escapePointer = (name: string) => name.replaceAll('~', '~0').replaceAll('/', '~1');

// ---------------------------------------------------------------------------------------------
// Reading relations

export type Definitions = Map<string, CustomObjectDefinition>;

export async function definitionsOf(workspaceId: string): Promise<Definitions> {
  return new Map(
    (await definitionStore.of(workspaceId).list()).map((definition) => [definition.id, definition]),
  );
}

function toSide(side: StoredRelationSide, definitions: Definitions): RelationSide {
  return {
    definition_slug: definitions.get(side.definition_id)?.slug ?? '',
    cardinality: side.cardinality,
    required: side.required,
    slug: side.slug,
    title: side.title,
    is_hidden: side.is_hidden,
    translations: side.translations,
  };
}

export function toRelation(stored: StoredRelation, definitions: Definitions): Relation {
  return {
    id: stored.id,
    a: toSide(stored.a, definitions),
    b: toSide(stored.b, definitions),
    read_only: stored.read_only,
  };
}

/** Whether both definitions of a relation still exist (a deleted definition leaves its relations dangling). */
export const isLive = (relation: StoredRelation, definitions: Definitions) =>
  definitions.has(relation.a.definition_id) && definitions.has(relation.b.definition_id);

/**
 * One way a definition reaches another through a relation: `own` is the definition's side,
 * `slug` the field on its type (the other side's slug), the partners are on the other side.
 */
export interface Reach {
  relation: StoredRelation;
  own: Side;
  slug: string;
  /** The definition of the partners. */
  otherDefinitionId: string;
}

/** Every way a definition reaches other records: a self-relation reaches twice (its two slugs differ). */
export function reachesOf(relations: readonly StoredRelation[], definitionId: string): Reach[] {
  const reaches: Reach[] = [];
  for (const relation of relations) {
    for (const own of sides) {
      if (relation[own].definition_id !== definitionId) continue;
      const other = otherSide(own);
      reaches.push({
        relation,
        own,
        slug: relation[other].slug,
        otherDefinitionId: relation[other].definition_id,
      });
    }
  }
  return reaches;
}

/**
 * The relation fields of a definition's type (the slugs under which it reaches other records):
 * names a property of the definition must not take, as relation slugs may not take property names.
 */
export async function relationSlugsOf(workspaceId: string, definitionId: string): Promise<string[]> {
  return reachesOf(await relationStore.of(workspaceId).list(), definitionId).map((reach) => reach.slug);
}

/** The live relations of the workspace, with its definitions. */
export async function relationModel(workspaceId: string) {
  const [relations, definitions] = await Promise.all([
    relationStore.of(workspaceId).list(),
    definitionsOf(workspaceId),
  ]);
  return { relations: relations.filter((relation) => isLive(relation, definitions)), definitions };
}

// ---------------------------------------------------------------------------------------------
// Creating relations (batch)

/** The codes of a batch's shape errors (400 `location-relation-*`). */
type RelationShapeCode = Extract<CustomObjectErrorCode, `relation-${string}`>;

interface LocatedError extends FieldError {
  code: RelationShapeCode;
}

/** A zod issue of one relation of the batch as the `location-relation-*` error it stands for. */
function shapeError(index: number, issue: RelationShapeIssue): LocatedError[] {
  const path = issue.path.map(String);
  const base = `#/relations/${index}`;
  const pointer = path.length ? `${base}/${path.map(escapePointer).join('/')}` : base;
  const fieldType =
    issue.code === 'invalid_type'
      ? issue.input === undefined || issue.input === null
        ? 'field-required'
        : 'field-type-invalid'
      : 'field-invalid';
  if (issue.code === 'unrecognized_keys') {
    return (issue.keys ?? []).map((key) => ({
      code: 'relation-invalid' as const,
      type: 'field-unknown' as const,
      pointer: `${pointer}/${escapePointer(key)}`,
      detail:
        path.length === 0
          ? 'is not a field of a relation (a, b, read_only)'
          : 'is not a field of a relation side (definition_slug, cardinality, required, slug, title, is_hidden, translations)',
    }));
  }
  const [first, field] = path;
  let code: RelationShapeCode = 'relation-invalid';
  let detail = issue.message;
  if (path.length === 0) detail = 'must be a relation object with sides a and b';
  else if ((first === 'a' || first === 'b') && path.length === 1) {
    code = 'relation-side-missing';
    detail = `side ${first} is required: an object with definition_slug, cardinality and slug`;
  } else if (field === 'definition_slug' && path.length === 2) {
    code = 'relation-definition-unknown';
    detail = 'must be the slug of a definition of this workspace';
  } else if (field === 'cardinality' && path.length === 2) {
    code = 'relation-cardinality-invalid';
    detail = 'must be ONE or MANY';
  } else if (field === 'slug' && path.length === 2) {
    code = 'relation-slug-invalid';
    detail = 'must start with a lower-case letter and hold only a-z, 0-9 and _ (at most 63 characters)';
  }
  return [{ code, type: fieldType, pointer, detail }];
}

/** Names already taken on a definition's type: its properties, the system fields, its relation fields. */
function takenNames(
  definition: CustomObjectDefinition,
  relations: readonly StoredRelation[],
): Map<string, string> {
  const taken = new Map<string, string>();
  for (const field of systemFields) taken.set(field, `is the system field ${field} of every record`);
  for (const name of Object.keys(definition.properties)) {
    const detail = `is the property ${name} of ${definition.slug}`;
    taken.set(name, detail);
    taken.set(graphqlName(name), detail);
  }
  for (const reach of reachesOf(relations, definition.id)) {
    taken.set(reach.slug, `already names relation ${reach.relation.id} on ${definition.slug}`);
  }
  return taken;
}

/** One error for the batch: the first error's code (body order), every error at its pointer. */
function badRequest(errors: LocatedError[]): CustomObjectError {
  const first = errors[0];
  return new CustomObjectError(first?.code ?? 'relation-invalid', {
    detail: errors.map((error) => `${error.pointer}: ${error.detail}`).join('; '),
    fields: errors.map(({ code: _code, ...error }) => error),
  });
}

export async function createRelations(
  ctx: Actor,
  body: { relations: CreateRelation[] },
): Promise<{ items: Relation[]; page: ReturnType<typeof pageOf> }> {
  const [all, definitions] = await Promise.all([
    relationStore.of(ctx).list(),
    definitionsOf(ctx.workspaceId),
  ]);
  const bySlug = new Map([...definitions.values()].map((definition) => [definition.slug, definition]));
  const live = all.filter((relation) => isLive(relation, definitions));
  const now = new Date().toISOString();
  const errors: LocatedError[] = [];
  const created: StoredRelation[] = [];
  // Names per type id, grown with each relation of the batch, so the batch cannot clash with itself.
  const names = new Map<string, Map<string, string>>();
  const namesOf = (definition: CustomObjectDefinition) => {
    let taken = names.get(definition.id);
    if (!taken) {
      taken = takenNames(definition, live);
      names.set(definition.id, taken);
    }
    return taken;
  };

  body.relations.forEach((entry, index) => {
    const issues = relationShapeIssues(entry);
    if (issues) {
      errors.push(...issues.flatMap((issue) => shapeError(index, issue)));
      return;
    }
    const found = { a: bySlug.get(entry.a.definition_slug), b: bySlug.get(entry.b.definition_slug) };
    for (const side of sides) {
      if (!found[side]) {
        errors.push({
          code: 'relation-definition-unknown',
          type: 'field-invalid',
          pointer: `#/relations/${index}/${side}/definition_slug`,
          detail: `names no definition of this workspace (${entry[side].definition_slug})`,
        });
      }
    }
    if (!found.a || !found.b) return;
    const id = uuidv7();
    let clash = false;
    for (const side of sides) {
      // This side's slug becomes a field of the OTHER side's type.
      const type = found[otherSide(side)] as CustomObjectDefinition;
      const taken = namesOf(type);
      const slug = entry[side].slug;
      const holder = taken.get(slug);
      if (holder) {
        clash = true;
        errors.push({
          code: 'relation-slug-invalid',
          type: 'field-invalid',
          pointer: `#/relations/${index}/${side}/slug`,
          detail: `is the name under which ${type.slug} reaches ${entry[side].definition_slug}, but ${slug} ${holder}; choose another, e.g. ${slug}_ref`,
        });
      } else {
        taken.set(slug, `already names relation ${index} of this batch on ${type.slug}`);
      }
    }
    if (clash) return;
    const stored = (side: Side): StoredRelationSide => {
      const given = entry[side];
      const definition = found[side] as CustomObjectDefinition;
      return {
        definition_id: definition.id,
        cardinality: given.cardinality,
        required: given.required ?? false,
        slug: given.slug,
        title: given.title ?? definition.title,
        is_hidden: given.is_hidden ?? false,
        translations: given.translations ?? {},
      };
    };
    created.push({
      id,
      a: stored('a'),
      b: stored('b'),
      read_only: entry.read_only ?? false,
      created_at: now,
      updated_at: now,
      lock_version: 0,
    });
  });
  if (errors.length > 0) throw badRequest(errors);
  if (all.length + created.length > maxRelationsPerWorkspace) {
    throw new CustomObjectError('invalid', {
      fields: [
        {
          type: 'field-invalid',
          pointer: '#/relations',
          detail: `the workspace holds ${all.length} relations; at most ${maxRelationsPerWorkspace} are allowed`,
        },
      ],
    });
  }
  const items = created.map((relation) => toRelation(relation, definitions));
  await relationStore.of(ctx).createAll(
    created.map((relation, index) => ({
      relation,
      event: domainEvent(ctx, 'custom_object_relation.created', resource(relation.id), { ...items[index] }),
    })),
    [revisionWrite(ctx.workspaceId)],
  );
  return { items, page: pageOf(items.length, { page: 0, size: items.length }) };
}

// ---------------------------------------------------------------------------------------------
// Listing and deleting relations

const relationReaders = ['custom-objects:definitions:update', 'custom-objects:instances:update'] as const;

export async function listRelationsOfDefinition(
  ctx: Actor,
  slug: string,
  query: { page?: number | undefined; size?: number | undefined },
) {
  if (!relationReaders.some((grant) => ctx.principal.grants.has(grant))) {
    throw new CustomObjectError('forbidden', {
      detail: `Reading the relations of a definition needs ${relationReaders.join(' or ')}.`,
      data: { reason: 'missing_grant', required_grants: ['custom-objects:instances:update'] },
    });
  }
  const { relations, definitions } = await relationModel(ctx.workspaceId);
  const definition = [...definitions.values()].find((candidate) => candidate.slug === slug);
  if (!definition) {
    throw new CustomObjectError('not-found', { detail: `No custom-object definition has the slug ${slug}.` });
  }
  const own = relations
    .filter(
      (relation) => relation.a.definition_id === definition.id || relation.b.definition_id === definition.id,
    )
    .sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0))
    .map((relation) => toRelation(relation, definitions));
  return paginate(own, query);
}

export async function deleteRelation(ctx: Actor, relationId: string): Promise<void> {
  const definitions = await definitionsOf(ctx.workspaceId);
  const removed = await deleteExisting<StoredRelation>({
    load: () => relationStore.of(ctx).get(relationId),
    remove: (current) =>
      relationStore.of(ctx).remove(
        current,
        domainEvent(ctx, 'custom_object_relation.deleted', resource(current.id), {
          ...toRelation(current, definitions),
        }),
        // The purge's first step travels with the delete: a crash right after it leaves nothing behind.
        [revisionWrite(ctx.workspaceId), outboxWrite(purgeEvent(ctx.workspaceId, current))],
      ),
  });
  await purgeAssociations(ctx.workspaceId, removed, syncPurgeLimit);
}
