import type { Actor, Principal } from '../../auth/actor.ts';
import { DataError } from '../../data/data-error.ts';
import type { TableWrite } from '../../data/table.ts';
import { type DomainEvent, domainEvent } from '../../events/domain-event.ts';
import type { FieldError } from '../../schema/field-error.ts';
import { pageOf } from '../../schema/list.ts';
import { type AssociationRecord, associationStore } from './association.store.ts';
import { CustomObjectError } from './custom-object-error.ts';
import type { CustomObjectDefinition } from './definition.schema.ts';
import { definitionStore } from './definition.store.ts';
import { definitionFor, schemaRef, toInstance } from './instance.service.ts';
import { type InstanceItem, instanceOf, instanceStore, linkAttribute, linkedIds } from './instance.store.ts';
import { instanceAccess } from './instance-access.ts';
import { type Association, maxLinksPerSide } from './relation.schema.ts';
import {
  definitionsOf,
  escapePointer,
  isLive,
  otherSide,
  type Reach,
  reachesOf,
  relationModel,
  type Side,
  sides,
} from './relation.service.ts';
import { relationStore } from './relation.store.ts';

/** Links given at instance creation, all relations together: each is 2 writes of the one transaction. */
export const maxCreationLinks = 40;

function cardinalityProblem(side: Side, pointer: string, detail: string): CustomObjectError {
  const code = side === 'a' ? 'cardinality-violation-source' : 'cardinality-violation-target';
  return new CustomObjectError(code, { detail, fields: [{ type: 'field-invalid', pointer, detail }] });
}

function denied(grant: string, detail: string): CustomObjectError {
  return new CustomObjectError('forbidden', {
    detail,
    data: { reason: 'missing_grant', required_grants: [grant] },
  });
}

/** The relation with both definitions, writable (or readable) by the caller on both sides. */
async function relationFor(ctx: Actor, relationId: string, need: 'read' | 'write') {
  const relation = await relationStore.of(ctx).get(relationId);
  if (!relation)
    throw new CustomObjectError('not-found', { detail: 'No custom-object relation has this id.' });
  const [a, b] = await Promise.all(
    sides.map((side) => definitionStore.of(ctx).get(relation[side].definition_id)),
  );
  if (!a || !b)
    throw new CustomObjectError('not-found', { detail: 'No custom-object relation has this id.' });
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

const associationOf = (relationId: string, record: AssociationRecord): Association => ({
  relation_id: relationId,
  side_a_instance_id: String(record.a_id),
  side_b_instance_id: String(record.b_id),
  created_at: String(record.created_at),
});

/**
 * custom_object_relation.association.created / .deleted, for the transaction of the change: an
 * association is a record the API reads back, so its creation and removal are audited (and
 * delivered like the relation's own events). It has no id of its own: the relation and the two
 * instances name it, and the definitions say which types they are.
 */
function associationEvent(
  ctx: Actor,
  verb: 'created' | 'deleted',
  relation: { id: string; a: { definition_id: string }; b: { definition_id: string } },
  association: Omit<Association, 'created_at'> & { created_at?: string },
): DomainEvent {
  return domainEvent(
    ctx,
    verb === 'created'
      ? 'custom_object_relation.association.created'
      : 'custom_object_relation.association.deleted',
    { type: 'custom_object_relation', id: relation.id },
    {
      ...association,
      side_a_definition_id: relation.a.definition_id,
      side_b_definition_id: relation.b.definition_id,
    },
  );
}

/** Attempts of an association write that keeps meeting concurrent changes. */
const maxAttempts = 4;

export async function associate(
  ctx: Actor,
  relationId: string,
  body: { side_a_instance_id: string; side_b_instance_id: string },
): Promise<Association> {
  const { relation } = await relationFor(ctx, relationId, 'write');
  const ids = { a: body.side_a_instance_id, b: body.side_b_instance_id };
  const pointer = (side: Side) => `#/side_${side}_instance_id`;
  if (relation.a.definition_id === relation.b.definition_id && ids.a === ids.b) {
    throw new CustomObjectError('invalid', {
      fields: [
        {
          type: 'field-invalid',
          pointer: pointer('b'),
          detail: 'an instance cannot be associated with itself',
        },
      ],
    });
  }
  const pair = { relationId: relation.id, aId: ids.a, bId: ids.b };
  const associations = associationStore.of(ctx);
  const instances = instanceStore.of(ctx);
  for (let attempt = 1; ; attempt++) {
    const [a, b] = await instances.getMany(
      sides.map((side) => ({ definitionId: relation[side].definition_id, id: ids[side] })),
    );
    const records = { a, b };
    const missing = sides.filter((side) => !records[side]);
    if (missing.length > 0) {
      throw new CustomObjectError('invalid', {
        fields: missing.map((side) => ({
          type: 'field-invalid' as const,
          pointer: pointer(side),
          detail: `names no instance of the definition on side ${side}`,
        })),
      });
    }
    const linked = {
      a: linkedIds(a as InstanceItem, relation.id, 'a'),
      b: linkedIds(b as InstanceItem, relation.id, 'b'),
    };
    if (linked.a.includes(ids.b)) {
      const existing = await associations.get(pair);
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
        throw new CustomObjectError('invalid', {
          fields: [
            {
              type: 'field-invalid',
              pointer: pointer(side),
              detail: `this instance already has ${maxLinksPerSide} links through side ${side} of this relation (the limit)`,
            },
          ],
        });
      }
    }
    const record: AssociationRecord = {
      relation_id: relation.id,
      a_id: ids.a,
      b_id: ids.b,
      created_at: new Date().toISOString(),
    };
    try {
      await associations.create(
        record,
        associationEvent(ctx, 'created', relation, associationOf(relation.id, record)),
        sides.map((side) =>
          instances.linkWrite(relation[side].definition_id, ids[side], relation.id, side, {
            add: [ids[otherSide(side)]],
            atMostOne: relation[side].cardinality === 'ONE',
          }),
        ),
      );
      return associationOf(relation.id, record);
    } catch (error) {
      // A concurrent change (the pair associated, an instance deleted or linked elsewhere):
      // read again, so the answer names what happened.
      if (!(error instanceof DataError) || error.code === 'unavailable') throw error;
      if (attempt >= maxAttempts)
        throw new CustomObjectError('conflict', { detail: 'The instances kept changing; retry.' });
    }
  }
}

export async function removeAssociation(
  ctx: Actor,
  relationId: string,
  aId: string,
  bId: string,
): Promise<void> {
  const { relation } = await relationFor(ctx, relationId, 'write');
  const ids = { a: aId, b: bId };
  const pair = { relationId: relation.id, aId, bId };
  const associations = associationStore.of(ctx);
  const instances = instanceStore.of(ctx);
  for (let attempt = 1; ; attempt++) {
    if (!(await associations.get(pair))) {
      throw new CustomObjectError('not-found', {
        detail: 'These instances are not associated through this relation.',
      });
    }
    const [a, b] = await instances.getMany(
      sides.map((side) => ({ definitionId: relation[side].definition_id, id: ids[side] })),
    );
    const records = { a, b };
    try {
      await associations.remove(
        pair,
        associationEvent(ctx, 'deleted', relation, {
          relation_id: relation.id,
          side_a_instance_id: aId,
          side_b_instance_id: bId,
        }),
        sides
          .filter((side) => records[side])
          .map((side) =>
            instances.linkWrite(relation[side].definition_id, ids[side], relation.id, side, {
              remove: [ids[otherSide(side)]],
            }),
          ),
      );
      return;
    } catch (error) {
      if (!(error instanceof DataError) || error.code === 'unavailable') throw error;
      if (attempt >= maxAttempts)
        throw new CustomObjectError('conflict', { detail: 'The instances kept changing; retry.' });
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
  ctx: Actor,
  definitionSlug: string,
  instanceId: string,
  relationSlug: string,
) {
  const definition = await definitionFor(ctx, definitionSlug, 'read');
  const [record, { relations, definitions }] = await Promise.all([
    instanceStore.of(ctx).get(definition.id, instanceId),
    relationModel(ctx.workspaceId),
  ]);
  if (!record) throw new CustomObjectError('not-found');
  const reach = reachesOf(relations, definition.id).find((candidate) => candidate.slug === relationSlug);
  if (!reach) {
    throw new CustomObjectError('not-found', {
      detail: `${definitionSlug} has no relation named ${relationSlug}.`,
    });
  }
  const other = definitions.get(reach.otherDefinitionId) as CustomObjectDefinition;
  if (!(await instanceAccess(ctx.principal, ctx.workspaceId, other)).read) {
    throw denied(
      'custom-objects:instances:read',
      `Reading ${other.slug} records needs custom-objects:instances:read and, for a protected type, an entry of its permission matrix.`,
    );
  }
  const ids = linkedIds(record, reach.relation.id, reach.own).sort();
  const found = await instanceStore.of(ctx).getMany(ids.map((id) => ({ definitionId: other.id, id })));
  // Ids of instances deleted a moment ago (their unlinking is best effort) are skipped.
  const items = found
    .filter((item): item is InstanceItem => item !== undefined)
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
  explain: (error: unknown) => Promise<CustomObjectError | undefined>;
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
        if (problem instanceof CustomObjectError) return problem;
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
  const all = await relationStore.of(workspaceId).list();
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
  if (errors.length > 0) throw new CustomObjectError('invalid', { fields: errors });
  if (wanted.length > maxCreationLinks) {
    throw new CustomObjectError('invalid', {
      fields: [
        {
          type: 'field-invalid',
          pointer: '#/relations',
          detail: `holds ${wanted.length} links; at most ${maxCreationLinks} are made with a creation, add more by associating`,
        },
      ],
    });
  }
  const missingRequired = reaches.filter(
    (reach) => reach.relation[reach.own].required && !wanted.some((entry) => entry.reach === reach),
  );
  if (missingRequired.length > 0) {
    throw new CustomObjectError('required-relation', {
      detail: `A new ${definition.slug} must be linked through: ${missingRequired.map((reach) => reach.slug).join(', ')}.`,
      fields: missingRequired.map((reach) => ({
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
  const instances = instanceStore.of(workspaceId);
  const associations = associationStore.of(workspaceId);
  const found = await instances.getMany(
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
      associations.createWrite({ relation_id: reach.relation.id, a_id: aId, b_id: bId, created_at: now }),
      instances.linkWrite(reach.otherDefinitionId, id, reach.relation.id, theirs, {
        add: [instanceId],
        atMostOne: reach.relation[theirs].cardinality === 'ONE',
      }),
    );
    const attribute = linkAttribute(reach.relation.id, reach.own);
    links[attribute] = (links[attribute] ?? new Set()).add(id);
  });
  if (errors.length > 0) throw new CustomObjectError('invalid', { fields: errors });
  return { writes, links };
}
