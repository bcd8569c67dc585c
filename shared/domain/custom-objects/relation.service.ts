/**
 * Custom-object relations and associations (SPEC.md, "Custom-object relation"; API-DECISIONS.md,
 * "Relation cardinality"). The rules this module enforces:
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
 * - An association is an item of the relation's partition plus a string set on each instance
 *   (instance.store.ts `linkAttribute`), written in one transaction. A side's cardinality limits
 *   the records of that side: side a ONE and a already linked to another b is 422
 *   cardinality-violation-source; side b ONE and b already linked to another a is 422
 *   cardinality-violation-target. The instances' conditions (`atMostOne`) hold against races too.
 *   Re-associating a pair that is associated answers 201 with the existing association.
 * - At most 1,000 links per instance and relation side; an instance is not associated with itself.
 * - Deleting a relation removes its associations: up to 200 at once, the rest in steps of
 *   `purgeStep` by `relationAssociationPurger`, driven by custom_object_relation.association_purge
 *   events (the first written in the delete's own transaction, so nothing is left behind).
 */
import { v7 as uuidv7 } from 'uuid';
import { DataError } from '../../data/data-error.ts';
import { instanceOf, instanceStore, linkAttribute, linkedIds } from '../../data/instance.store.ts';
import { associationPartition, keys } from '../../data/keys.ts';
import { outboxWrite } from '../../data/outbox.ts';
import { definitionStore, relationStore } from '../../data/stores.ts';
import {
  discardRecords,
  getRecord,
  queryPartition,
  type StoredRecord,
  type TableWrite,
  transactWrite,
  writeItem,
} from '../../data/table.ts';
import type { EventConsumer } from '../../events/consumers.ts';
import { type DomainEvent, domainEvent, systemEvent } from '../../events/domain-event.ts';
import { pageOf, paginate } from '../../http/list.ts';
import { type FieldError, notFound, ProblemError, validationProblem } from '../../http/problem.ts';
import type { ProblemType } from '../../http/problem-types.ts';
import type { AuthenticatedContext, Principal } from '../../http/request-context.ts';
import { deleteExisting } from '../versioned-write.ts';
import type { CustomObjectDefinition } from './definition.schema.ts';
import { revisionWrite } from './definition.service.ts';
import { graphqlName, systemFields } from './graphql-names.ts';
import { definitionFor, schemaRef, toInstance } from './instance.service.ts';
import { instanceAccess } from './instance-access.ts';
import {
  type Association,
  type CreateRelation,
  maxLinksPerSide,
  maxRelationsPerWorkspace,
  type Relation,
  type RelationShapeIssue,
  type RelationSide,
  relationShapeIssues,
  type StoredRelation,
  type StoredRelationSide,
} from './relation.schema.ts';

type Side = 'a' | 'b';
const sides: readonly Side[] = ['a', 'b'];
const otherSide = (side: Side): Side => (side === 'a' ? 'b' : 'a');

/** Links given at instance creation, all relations together: each is 2 writes of the one transaction. */
export const maxCreationLinks = 40;
/** Associations removed right after a relation is deleted; the rest by the purger, in steps. */
export const syncPurgeLimit = 200;
export const purgeStep = Number(process.env.FSM_RELATION_PURGE_STEP ?? 1000);

const resource = (id: string) => ({ type: 'custom_object_relation', id });
const escapePointer = (name: string) => name.replaceAll('~', '~0').replaceAll('/', '~1');

// ---------------------------------------------------------------------------------------------
// Reading relations

type Definitions = Map<string, CustomObjectDefinition>;

async function definitionsOf(workspaceId: string): Promise<Definitions> {
  return new Map((await definitionStore.list(workspaceId)).map((definition) => [definition.id, definition]));
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
const isLive = (relation: StoredRelation, definitions: Definitions) =>
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
  return reachesOf(await relationStore.list(workspaceId), definitionId).map((reach) => reach.slug);
}

/** The live relations of the workspace, with its definitions. */
async function relationModel(workspaceId: string) {
  const [relations, definitions] = await Promise.all([
    relationStore.list(workspaceId),
    definitionsOf(workspaceId),
  ]);
  return { relations: relations.filter((relation) => isLive(relation, definitions)), definitions };
}

// ---------------------------------------------------------------------------------------------
// Creating relations (batch)

interface LocatedError extends FieldError {
  problem: ProblemType;
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
      problem: 'location-relation-invalid' as const,
      type: 'field-unknown' as const,
      pointer: `${pointer}/${escapePointer(key)}`,
      detail:
        path.length === 0
          ? 'is not a field of a relation (a, b, read_only)'
          : 'is not a field of a relation side (definition_slug, cardinality, required, slug, title, is_hidden, translations)',
    }));
  }
  const [first, field] = path;
  let problem: ProblemType = 'location-relation-invalid';
  let detail = issue.message;
  if (path.length === 0) detail = 'must be a relation object with sides a and b';
  else if ((first === 'a' || first === 'b') && path.length === 1) {
    problem = 'location-relation-side-missing';
    detail = `side ${first} is required: an object with definition_slug, cardinality and slug`;
  } else if (field === 'definition_slug' && path.length === 2) {
    problem = 'location-relation-definition-unknown';
    detail = 'must be the slug of a definition of this workspace';
  } else if (field === 'cardinality' && path.length === 2) {
    problem = 'location-relation-cardinality-invalid';
    detail = 'must be ONE or MANY';
  } else if (field === 'slug' && path.length === 2) {
    problem = 'location-relation-slug-invalid';
    detail = 'must start with a lower-case letter and hold only a-z, 0-9 and _ (at most 63 characters)';
  }
  return [{ problem, type: fieldType, pointer, detail }];
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

function badRequest(errors: LocatedError[]): ProblemError {
  const first = errors[0];
  return new ProblemError(first?.problem ?? 'location-relation-invalid', {
    detail: errors.map((error) => `${error.pointer}: ${error.detail}`).join('; '),
    errors: errors.map(({ problem: _problem, ...error }) => error),
  });
}

export async function createRelations(
  ctx: AuthenticatedContext,
  body: { relations: CreateRelation[] },
): Promise<{ items: Relation[]; page: ReturnType<typeof pageOf> }> {
  const [all, definitions] = await Promise.all([
    relationStore.list(ctx.workspaceId),
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
          problem: 'location-relation-definition-unknown',
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
          problem: 'location-relation-slug-invalid',
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
    throw validationProblem([
      {
        type: 'field-invalid',
        pointer: '#/relations',
        detail: `the workspace holds ${all.length} relations; at most ${maxRelationsPerWorkspace} are allowed`,
      },
    ]);
  }
  const items = created.map((relation) => toRelation(relation, definitions));
  await transactWrite([
    ...created.flatMap((relation, index) => [
      {
        kind: 'create',
        key: relationStore.key(ctx.workspaceId, relation.id),
        entity: 'custom_object_relation',
        record: { ...relation },
      } as const,
      outboxWrite(
        domainEvent(ctx, 'custom_object_relation.created', resource(relation.id), { ...items[index] }),
      ),
    ]),
    revisionWrite(ctx.workspaceId),
  ]);
  return { items, page: pageOf(items.length, { page: 0, size: items.length }) };
}

// ---------------------------------------------------------------------------------------------
// Listing and deleting relations

const relationReaders = ['custom-objects:definitions:update', 'custom-objects:instances:update'] as const;

export async function listRelationsOfDefinition(
  ctx: AuthenticatedContext,
  slug: string,
  query: { page?: number | undefined; size?: number | undefined },
) {
  if (!relationReaders.some((grant) => ctx.principal.grants.has(grant))) {
    throw new ProblemError('access-denied', {
      detail: `Reading the relations of a definition needs ${relationReaders.join(' or ')}.`,
      data: { reason: 'missing_grant', required_grants: ['custom-objects:instances:update'] },
    });
  }
  const { relations, definitions } = await relationModel(ctx.workspaceId);
  const definition = [...definitions.values()].find((candidate) => candidate.slug === slug);
  if (!definition) throw notFound(`No custom-object definition has the slug ${slug}.`);
  const own = relations
    .filter(
      (relation) => relation.a.definition_id === definition.id || relation.b.definition_id === definition.id,
    )
    .sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0))
    .map((relation) => toRelation(relation, definitions));
  return paginate(own, query);
}

export async function deleteRelation(ctx: AuthenticatedContext, relationId: string): Promise<void> {
  const definitions = await definitionsOf(ctx.workspaceId);
  const removed = await deleteExisting<StoredRelation>({
    load: () => relationStore.get(ctx.workspaceId, relationId),
    remove: (current) =>
      relationStore.remove(
        ctx.workspaceId,
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

// ---------------------------------------------------------------------------------------------
// Purging the associations of a deleted relation

/** Instance link updates in flight at once while purging. */
const purgeConcurrency = 8;

async function inBatches<T>(
  items: readonly T[],
  size: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(size, items.length) }, async () => {
      while (next < items.length) await work(items[next++] as T);
    }),
  );
}

/** Remove ids from an instance's link set; an instance that is gone has nothing to remove. */
async function unlinkQuietly(key: { pk: string; sk: string }, attribute: string, ids: readonly string[]) {
  if (ids.length === 0) return;
  try {
    await writeItem({ kind: 'link', key, attribute, remove: ids });
  } catch (error) {
    if (!(error instanceof DataError && error.code === 'not-found')) throw error;
  }
}

/**
 * Deletes up to `limit` association items of a relation and removes their ids from both
 * instances' link sets (links first: a step that fails leaves the items, so the next one finds
 * them again). Returns whether more remain. Idempotent; the relation item itself may be gone.
 */
export async function purgeAssociations(
  workspaceId: string,
  relation: Pick<StoredRelation, 'id' | 'a' | 'b'>,
  limit: number,
): Promise<boolean> {
  const found = await queryPartition(associationPartition(workspaceId, relation.id), { limit: limit + 1 });
  const batch = found.slice(0, limit);
  if (batch.length === 0) return false;
  const partners = { a: new Map<string, string[]>(), b: new Map<string, string[]>() };
  for (const association of batch) {
    const a = String(association.a_id);
    const b = String(association.b_id);
    partners.a.set(a, [...(partners.a.get(a) ?? []), b]);
    partners.b.set(b, [...(partners.b.get(b) ?? []), a]);
  }
  const updates = sides.flatMap((side) =>
    [...partners[side].entries()].map(([id, ids]) => ({ side, id, ids })),
  );
  await inBatches(updates, purgeConcurrency, ({ side, id, ids }) =>
    unlinkQuietly(
      keys.instance(workspaceId, relation[side].definition_id, id),
      linkAttribute(relation.id, side),
      ids,
    ),
  );
  await discardRecords(
    batch.map((association) =>
      keys.association(workspaceId, relation.id, String(association.a_id), String(association.b_id)),
    ),
  );
  return found.length > limit;
}

function purgeEvent(workspaceId: string, relation: StoredRelation): DomainEvent {
  return systemEvent(workspaceId, 'custom_object_relation.association_purge', resource(relation.id), {
    id: relation.id,
    a: { definition_id: relation.a.definition_id },
    b: { definition_id: relation.b.definition_id },
  });
}

/**
 * The purge of a deleted relation's associations as an outbox consumer (for the `records`
 * group, beside device-history.consumer.ts): each custom_object_relation.association_purge event
 * removes up to `purgeStep` associations and, when more remain, writes the next such event.
 */
export const relationAssociationPurger: EventConsumer = {
  name: 'relation-associations',
  async handleBatch(events) {
    for (const event of events) {
      if (event.type !== 'custom_object_relation.association_purge') continue;
      const relation = event.data.object as Pick<StoredRelation, 'id' | 'a' | 'b'>;
      if (await purgeAssociations(event.workspace_id, relation, purgeStep)) {
        await transactWrite([outboxWrite(purgeEvent(event.workspace_id, relation as StoredRelation))]);
      }
    }
  },
};

/**
 * The relations of a deleted definition go with it (custom-object-purge.consumer.ts): each is
 * deleted with the model revision and a purge event in one transaction, then its first
 * `syncPurgeLimit` associations are removed here and the rest by `relationAssociationPurger`.
 * No custom_object_relation.deleted events: the definition's deletion is the event.
 */
export async function removeRelationsOf(workspaceId: string, definitionId: string): Promise<void> {
  const involved = (await relationStore.list(workspaceId)).filter(
    (relation) => relation.a.definition_id === definitionId || relation.b.definition_id === definitionId,
  );
  for (const relation of involved) {
    await transactWrite([
      { kind: 'discard', key: relationStore.key(workspaceId, relation.id) },
      revisionWrite(workspaceId),
      outboxWrite(purgeEvent(workspaceId, relation)),
    ]);
    await purgeAssociations(workspaceId, relation, syncPurgeLimit);
  }
}

// ---------------------------------------------------------------------------------------------
// Associations

function cardinalityProblem(side: Side, pointer: string, detail: string): ProblemError {
  const type = side === 'a' ? 'cardinality-violation-source' : 'cardinality-violation-target';
  return new ProblemError(type, { detail, errors: [{ type: 'field-invalid', pointer, detail }] });
}

function denied(grant: string, detail: string): ProblemError {
  return new ProblemError('access-denied', {
    detail,
    data: { reason: 'missing_grant', required_grants: [grant] },
  });
}

/** The relation with both definitions, writable (or readable) by the caller on both sides. */
async function relationFor(ctx: AuthenticatedContext, relationId: string, need: 'read' | 'write') {
  const relation = await relationStore.get(ctx.workspaceId, relationId);
  if (!relation) throw notFound('No custom-object relation has this id.');
  const [a, b] = await Promise.all(
    sides.map((side) => definitionStore.get(ctx.workspaceId, relation[side].definition_id)),
  );
  if (!a || !b) throw notFound('No custom-object relation has this id.');
  for (const definition of a.id === b.id ? [a] : [a, b]) {
    const access = await instanceAccess(ctx.principal, ctx.workspaceId, definition);
    if (!access[need]) {
      const grant = need === 'write' ? 'custom-objects:instances:update' : 'custom-objects:instances:read';
      throw denied(
        grant,
        `Changing the associations of this relation needs ${grant} and, for a protected type, a ${need} entry of ${definition.slug}'s permission matrix.`,
      );
    }
  }
  return { relation, definitions: { a, b } };
}

const associationOf = (relationId: string, record: StoredRecord): Association => ({
  relation_id: relationId,
  side_a_instance_id: String(record.a_id),
  side_b_instance_id: String(record.b_id),
  created_at: String(record.created_at),
});

/** Attempts of an association write that keeps meeting concurrent changes. */
const maxAttempts = 4;

export async function associate(
  ctx: AuthenticatedContext,
  relationId: string,
  body: { side_a_instance_id: string; side_b_instance_id: string },
): Promise<Association> {
  const { relation } = await relationFor(ctx, relationId, 'write');
  const ids = { a: body.side_a_instance_id, b: body.side_b_instance_id };
  const pointer = (side: Side) => `#/side_${side}_instance_id`;
  if (relation.a.definition_id === relation.b.definition_id && ids.a === ids.b) {
    throw validationProblem([
      {
        type: 'field-invalid',
        pointer: pointer('b'),
        detail: 'an instance cannot be associated with itself',
      },
    ]);
  }
  const key = keys.association(ctx.workspaceId, relation.id, ids.a, ids.b);
  for (let attempt = 1; ; attempt++) {
    const [a, b] = await instanceStore.getMany(
      ctx.workspaceId,
      sides.map((side) => ({ definitionId: relation[side].definition_id, id: ids[side] })),
    );
    const records = { a, b };
    const missing = sides.filter((side) => !records[side]);
    if (missing.length > 0) {
      throw validationProblem(
        missing.map((side) => ({
          type: 'field-invalid' as const,
          pointer: pointer(side),
          detail: `names no instance of the definition on side ${side}`,
        })),
      );
    }
    const linked = {
      a: linkedIds(a as StoredRecord, relation.id, 'a'),
      b: linkedIds(b as StoredRecord, relation.id, 'b'),
    };
    if (linked.a.includes(ids.b)) {
      const existing = await getRecord(key);
      if (existing) return associationOf(relation.id, existing);
    }
    for (const side of sides) {
      const other = otherSide(side);
      if (relation[side].cardinality === 'ONE' && linked[side].some((id) => id !== ids[other])) {
        throw cardinalityProblem(
          side,
          pointer(side),
          `side ${side} is ONE and this instance is already linked to another instance of side ${other}; remove that association first`,
        );
      }
      if (linked[side].length >= maxLinksPerSide) {
        throw validationProblem([
          {
            type: 'field-invalid',
            pointer: pointer(side),
            detail: `this instance already has ${maxLinksPerSide} links through side ${side} of this relation (the limit)`,
          },
        ]);
      }
    }
    const record = {
      relation_id: relation.id,
      a_id: ids.a,
      b_id: ids.b,
      created_at: new Date().toISOString(),
    };
    try {
      await transactWrite([
        { kind: 'create', key, entity: 'custom_object_association', record },
        ...sides.map(
          (side): TableWrite => ({
            kind: 'link',
            key: keys.instance(ctx.workspaceId, relation[side].definition_id, ids[side]),
            attribute: linkAttribute(relation.id, side),
            add: [ids[otherSide(side)]],
            atMostOne: relation[side].cardinality === 'ONE',
          }),
        ),
      ]);
      return associationOf(relation.id, record);
    } catch (error) {
      // A concurrent change (the pair associated, an instance deleted or linked elsewhere):
      // read again, so the answer names what happened.
      if (!(error instanceof DataError) || error.code === 'unavailable') throw error;
      if (attempt >= maxAttempts)
        throw new ProblemError('resource-conflict', { detail: 'The instances kept changing; retry.' });
    }
  }
}

export async function removeAssociation(
  ctx: AuthenticatedContext,
  relationId: string,
  aId: string,
  bId: string,
): Promise<void> {
  const { relation } = await relationFor(ctx, relationId, 'write');
  const ids = { a: aId, b: bId };
  const key = keys.association(ctx.workspaceId, relation.id, aId, bId);
  for (let attempt = 1; ; attempt++) {
    if (!(await getRecord(key))) throw notFound('These instances are not associated through this relation.');
    const [a, b] = await instanceStore.getMany(
      ctx.workspaceId,
      sides.map((side) => ({ definitionId: relation[side].definition_id, id: ids[side] })),
    );
    const records = { a, b };
    try {
      await transactWrite([
        { kind: 'delete', key },
        ...sides
          .filter((side) => records[side])
          .map(
            (side): TableWrite => ({
              kind: 'link',
              key: keys.instance(ctx.workspaceId, relation[side].definition_id, ids[side]),
              attribute: linkAttribute(relation.id, side),
              remove: [ids[otherSide(side)]],
            }),
          ),
      ]);
      return;
    } catch (error) {
      if (!(error instanceof DataError) || error.code === 'unavailable') throw error;
      if (attempt >= maxAttempts)
        throw new ProblemError('resource-conflict', { detail: 'The instances kept changing; retry.' });
    }
  }
}

/**
 * GET …/instances/{definition_slug}/{instance_id}/associated/{relation_slug}: every instance
 * linked to one instance through the relation its type reaches by `relation_slug` (the other
 * side's slug; unambiguous for self-relations too, their two slugs differ). One page holds all
 * of them (at most 1,000), in creation order.
 */
export async function listAssociated(
  ctx: AuthenticatedContext,
  definitionSlug: string,
  instanceId: string,
  relationSlug: string,
) {
  const definition = await definitionFor(ctx, definitionSlug, 'read');
  const [record, { relations, definitions }] = await Promise.all([
    instanceStore.get(ctx.workspaceId, definition.id, instanceId),
    relationModel(ctx.workspaceId),
  ]);
  if (!record) throw notFound();
  const reach = reachesOf(relations, definition.id).find((candidate) => candidate.slug === relationSlug);
  if (!reach) throw notFound(`${definitionSlug} has no relation named ${relationSlug}.`);
  const other = definitions.get(reach.otherDefinitionId) as CustomObjectDefinition;
  if (!(await instanceAccess(ctx.principal, ctx.workspaceId, other)).read) {
    throw denied(
      'custom-objects:instances:read',
      `Reading ${other.slug} records needs custom-objects:instances:read and, for a protected type, an entry of its permission matrix.`,
    );
  }
  const ids = linkedIds(record, reach.relation.id, reach.own).sort();
  const found = await instanceStore.getMany(
    ctx.workspaceId,
    ids.map((id) => ({ definitionId: other.id, id })),
  );
  // Ids of instances deleted a moment ago (their unlinking is best effort) are skipped.
  const items = found
    .filter((item): item is StoredRecord => item !== undefined)
    .map((item) => toInstance(other, instanceOf(item)));
  return {
    items,
    schema: schemaRef(other),
    page: pageOf(items.length, { page: 0, size: Math.max(1, items.length) }),
  };
}

// ---------------------------------------------------------------------------------------------
// Instance creation and deletion

export interface CreationLinks {
  /** Association items and the `link` writes on the other instances: join the instance's transaction. */
  writes: TableWrite[];
  /** Link attributes (instance.store.ts `linkAttribute`) to put on the new instance item. */
  links: Record<string, Set<string>>;
  /**
   * When the instance's transaction failed with a DataError (a linked instance was deleted or
   * linked elsewhere meanwhile: the `link` conditions), the problem that names why, read again;
   * undefined when the links are still fine (a conflict elsewhere).
   */
  explain: (error: unknown) => Promise<ProblemError | undefined>;
}

/**
 * The links a new instance of `definition` is created with: `given` maps the relation slug as
 * seen from this definition (the other side's slug) to one id or a list of ids of the other side.
 * Checks, in this order: a known slug (422 at `#/relations/<slug>`), at most 40 ids in all, the
 * sides of this definition marked required (422 required-relation), ONE sides given one id,
 * access to the other definitions (with `principal`), the instances exist (422 at
 * `#/relations/<slug>` or `…/<index>`), and their own cardinality and link limit.
 */
export async function creationLinks(
  workspaceId: string,
  definition: CustomObjectDefinition,
  instanceId: string,
  given: Record<string, unknown> | undefined,
  principal?: Pick<Principal, 'roles' | 'grants'>,
): Promise<CreationLinks> {
  const check = () => linksOrThrow(workspaceId, definition, instanceId, given, principal);
  const { writes, links } = await check();
  return {
    writes,
    links,
    explain: async (error) => {
      if (!(error instanceof DataError) || error.code === 'unavailable') return undefined;
      try {
        await check();
      } catch (problem) {
        if (problem instanceof ProblemError) return problem;
        throw problem;
      }
      return undefined;
    },
  };
}

async function linksOrThrow(
  workspaceId: string,
  definition: CustomObjectDefinition,
  instanceId: string,
  given: Record<string, unknown> | undefined,
  principal: Pick<Principal, 'roles' | 'grants'> | undefined,
): Promise<{ writes: TableWrite[]; links: Record<string, Set<string>> }> {
  const entries = Object.entries(given ?? {});
  const all = await relationStore.list(workspaceId);
  // Most creations: no relation of this type and none given, one Query.
  if (entries.length === 0 && reachesOf(all, definition.id).length === 0) return { writes: [], links: {} };
  const definitions = await definitionsOf(workspaceId);
  const reaches = reachesOf(
    all.filter((relation) => isLive(relation, definitions)),
    definition.id,
  );
  const bySlug = new Map(reaches.map((reach) => [reach.slug, reach]));
  const errors: FieldError[] = [];
  const wanted: Array<{ reach: Reach; id: string; pointer: string }> = [];
  for (const [slug, value] of entries) {
    const pointer = `#/relations/${escapePointer(slug)}`;
    const reach = bySlug.get(slug);
    if (!reach) {
      const known = reaches.map((candidate) => candidate.slug);
      errors.push({
        type: 'field-invalid',
        pointer,
        detail: `names no relation of ${definition.slug}${known.length ? `; its relations: ${known.join(', ')}` : ''}`,
      });
      continue;
    }
    const list = Array.isArray(value) ? value : [value];
    list.forEach((id, index) => {
      const at = Array.isArray(value) ? `${pointer}/${index}` : pointer;
      if (typeof id !== 'string')
        errors.push({ type: 'field-type-invalid', pointer: at, detail: 'must be an instance id' });
      else if (!wanted.some((entry) => entry.reach === reach && entry.id === id))
        wanted.push({ reach, id, pointer: at });
    });
  }
  if (errors.length > 0) throw validationProblem(errors);
  if (wanted.length > maxCreationLinks) {
    throw validationProblem([
      {
        type: 'field-invalid',
        pointer: '#/relations',
        detail: `holds ${wanted.length} links; at most ${maxCreationLinks} are made with a creation, add more by associating`,
      },
    ]);
  }
  const missingRequired = reaches.filter(
    (reach) => reach.relation[reach.own].required && !wanted.some((entry) => entry.reach === reach),
  );
  if (missingRequired.length > 0) {
    throw new ProblemError('required-relation', {
      detail: `A new ${definition.slug} must be linked through: ${missingRequired.map((reach) => reach.slug).join(', ')}.`,
      errors: missingRequired.map((reach) => ({
        type: 'field-required' as const,
        pointer: `#/relations/${escapePointer(reach.slug)}`,
        detail: `is required: every ${definition.slug} links to a ${definitions.get(reach.otherDefinitionId)?.slug} when it is created`,
      })),
    });
  }
  for (const reach of reaches) {
    const count = wanted.filter((entry) => entry.reach === reach).length;
    if (reach.relation[reach.own].cardinality === 'ONE' && count > 1) {
      throw cardinalityProblem(
        reach.own,
        `#/relations/${escapePointer(reach.slug)}`,
        `side ${reach.own} of this relation is ONE: a ${definition.slug} links to one ${definitions.get(reach.otherDefinitionId)?.slug} at most`,
      );
    }
  }
  if (principal) {
    for (const id of new Set(wanted.map((entry) => entry.reach.otherDefinitionId))) {
      const other = definitions.get(id) as CustomObjectDefinition;
      if (!(await instanceAccess(principal, workspaceId, other)).write) {
        throw denied(
          'custom-objects:instances:update',
          `Linking to ${other.slug} records needs custom-objects:instances:update and, for a protected type, a write entry of its permission matrix.`,
        );
      }
    }
  }
  const found = await instanceStore.getMany(
    workspaceId,
    wanted.map((entry) => ({ definitionId: entry.reach.otherDefinitionId, id: entry.id })),
  );
  const seenItems = new Map<string, string>();
  const writes: TableWrite[] = [];
  const links: Record<string, Set<string>> = {};
  const now = new Date().toISOString();
  wanted.forEach((entry, index) => {
    const { reach, id, pointer } = entry;
    const record = found[index];
    const theirs = otherSide(reach.own);
    if (!record) {
      errors.push({
        type: 'field-invalid',
        pointer,
        detail: `names no ${definitions.get(reach.otherDefinitionId)?.slug} instance`,
      });
      return;
    }
    const item = `${reach.otherDefinitionId}/${id}`;
    const before = seenItems.get(item);
    if (before) {
      errors.push({
        type: 'field-invalid',
        pointer,
        detail: `links to the instance ${before} links to already; one creation links an instance once, associate the second link afterwards`,
      });
      return;
    }
    seenItems.set(item, pointer);
    const current = linkedIds(record, reach.relation.id, theirs);
    if (reach.relation[theirs].cardinality === 'ONE' && current.length > 0) {
      throw cardinalityProblem(
        theirs,
        pointer,
        `side ${theirs} of this relation is ONE and this instance is already linked to another; remove that association first`,
      );
    }
    if (current.length >= maxLinksPerSide) {
      errors.push({
        type: 'field-invalid',
        pointer,
        detail: `this instance already has ${maxLinksPerSide} links through this relation (the limit)`,
      });
      return;
    }
    const [aId, bId] = reach.own === 'a' ? [instanceId, id] : [id, instanceId];
    writes.push(
      {
        kind: 'create',
        key: keys.association(workspaceId, reach.relation.id, aId, bId),
        entity: 'custom_object_association',
        record: { relation_id: reach.relation.id, a_id: aId, b_id: bId, created_at: now },
      },
      {
        kind: 'link',
        key: keys.instance(workspaceId, reach.otherDefinitionId, id),
        attribute: linkAttribute(reach.relation.id, theirs),
        add: [instanceId],
        atMostOne: reach.relation[theirs].cardinality === 'ONE',
      },
    );
    const attribute = linkAttribute(reach.relation.id, reach.own);
    links[attribute] = (links[attribute] ?? new Set()).add(id);
  });
  if (errors.length > 0) throw validationProblem(errors);
  return { writes, links };
}

/**
 * After an instance was deleted: its association items go, and the instances it was linked to
 * forget its id. Best effort, in batches; readers skip ids of instances that are gone anyway.
 * `record` is the item as read before the delete (its link attributes name the partners).
 */
export async function unlinkInstance(
  workspaceId: string,
  definition: Pick<CustomObjectDefinition, 'id'>,
  record: StoredRecord,
): Promise<void> {
  const instanceId = String(record.id);
  const relations = new Map(
    (await relationStore.list(workspaceId)).map((relation) => [relation.id, relation]),
  );
  const associationKeys: Array<{ pk: string; sk: string }> = [];
  const updates: Array<{ key: { pk: string; sk: string }; attribute: string; ids: string[] }> = [];
  for (const name of Object.keys(record)) {
    const match = /^L:(.+):([ab])$/.exec(name);
    if (!match) continue;
    const relation = relations.get(match[1] as string);
    const own = match[2] as Side;
    if (!relation || relation[own].definition_id !== definition.id) continue;
    const theirs = otherSide(own);
    for (const partner of linkedIds(record, relation.id, own)) {
      const [aId, bId] = own === 'a' ? [instanceId, partner] : [partner, instanceId];
      associationKeys.push(keys.association(workspaceId, relation.id, aId, bId));
      updates.push({
        key: keys.instance(workspaceId, relation[theirs].definition_id, partner),
        attribute: linkAttribute(relation.id, theirs),
        ids: [instanceId],
      });
    }
  }
  await inBatches(updates, purgeConcurrency, ({ key, attribute, ids }) => unlinkQuietly(key, attribute, ids));
  await discardRecords(associationKeys);
}
