/**
 * Custom-object relation (SPEC.md, "Custom-object relation"): two sides a and b, each naming a
 * definition by slug, its cardinality (how many records of the other side one record of THIS
 * side may link to: API-DECISIONS.md), whether a link is required at creation, the slug under
 * which the other side reaches this side, a title, is_hidden and translations.
 *
 * Stored with the definitions' ids (a rename keeps the relation); the representation renders the
 * current slugs.
 */
import * as z from 'zod';
import { text } from '../../schema/fields.ts';
import { pagedListSchema } from '../../schema/list.ts';
import { paginationQuery } from '../../schema/query-params.ts';
import { slugPattern } from './definition-rules.ts';
import { CustomObjectInstanceListSchema } from './instance.schema.ts';

export const cardinalities = ['ONE', 'MANY'] as const;
export type Cardinality = (typeof cardinalities)[number];

export interface RelationSide {
  definition_slug: string;
  cardinality: Cardinality;
  required: boolean;
  slug: string;
  title: string;
  is_hidden: boolean;
  translations: Record<string, { singular: string; plural: string }>;
}

export interface StoredRelationSide extends Omit<RelationSide, 'definition_slug'> {
  /** The definition's id: stable across renames. */
  definition_id: string;
}

export interface StoredRelation {
  id: string;
  a: StoredRelationSide;
  b: StoredRelationSide;
  read_only: boolean;
  created_at: string;
  updated_at: string;
  lock_version: number;
}

export interface Relation {
  id: string;
  a: RelationSide;
  b: RelationSide;
  read_only: boolean;
}

/**
 * At most this many relations per batch (a batch is one transaction: each relation is its item
 * and its event, beside the model revision, within DynamoDB's 100 writes), per workspace, and
 * links per instance and relation side.
 */
export const maxRelationsPerBatch = 40;
export const maxRelationsPerWorkspace = 500;
export const maxLinksPerSide = 1000;

const relationSlugDescription =
  'The name under which the OTHER side reaches this side: the field this relation adds to the other ' +
  "side's type (GraphQL), the key of `relations` when an instance of the other side is created, and the " +
  '`relation_slug` of its associated listing. A lower-case letter, then a-z, 0-9 and _ (at most 63); it ' +
  "must differ from that type's property names, its system fields (id, created_at, updated_at, " +
  'lock_version) and the slugs of its other relations.';

const cardinalityDescription =
  'How many records of the other side ONE record of this side may link to: ONE or MANY.';

const translations = z
  .record(
    z
      .string()
      .regex(/^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/)
      .meta({ description: 'A BCP 47 language tag (de, de-AT, en).' }),
    z.object({ singular: text({ max: 255 }), plural: text({ max: 255 }) }).strict(),
  )
  .meta({ description: 'Labels of this side per language.' });

export const CreateRelationSideSchema = z
  .object({
    definition_slug: z
      .string()
      .max(63)
      .meta({ description: 'The definition (of this workspace) on this side.' }),
    cardinality: z.enum(cardinalities).meta({ description: cardinalityDescription }),
    required: z
      .boolean()
      .optional()
      .meta({
        description:
          'true: every record of this side must link to the other side when it is created (422 required-relation ' +
          'otherwise). Default false.',
      }),
    slug: z.string().regex(slugPattern).meta({ description: relationSlugDescription }),
    title: text({ max: 255 })
      .optional()
      .meta({ description: "Default: the title of this side's definition." }),
    is_hidden: z.boolean().optional().meta({
      description: 'true: the field this side adds to the other type is left out of GraphQL. Default false.',
    }),
    translations: translations.optional().meta({ description: 'Labels per language. Default: none.' }),
  })
  .strict()
  .meta({ id: 'CreateCustomObjectRelationSide', description: 'One side of a new relation.' });

export const CreateRelationSchema = z
  .object({
    a: CreateRelationSideSchema,
    b: CreateRelationSideSchema,
    read_only: z
      .boolean()
      .optional()
      .meta({
        description:
          'A hint for user interfaces that people should not edit the links of this relation (integrations ' +
          'set them); the API does not refuse association changes because of it. Default false.',
      }),
  })
  .strict()
  .meta({
    id: 'CreateCustomObjectRelation',
    description: 'A relation between two definitions, sides a and b.',
  });

export type CreateRelation = z.output<typeof CreateRelationSchema>;

/** What was wrong with one relation of a batch body, as zod saw it (paths relative to the relation). */
export interface RelationShapeIssue {
  path: ReadonlyArray<PropertyKey>;
  code: string;
  message: string;
  input: unknown;
  keys?: readonly string[];
}

const shapeIssues = Symbol('relation shape issues');

/**
 * A relation of the batch body whose shape is wrong is not a 422 of the whole body but one of the
 * 400 `location-relation-*` problems (SPEC.md, Errors): so each relation is parsed leniently here,
 * its issues kept for relation.service.ts to classify, and the published schema stays the strict one.
 */
const lenientRelation = CreateRelationSchema.catch(
  (ctx) =>
    ({
      [shapeIssues]: ctx.error.issues.map((issue) => ({
        path: issue.path,
        code: issue.code,
        message: issue.message,
        input: (issue as { input?: unknown }).input,
        ...('keys' in issue ? { keys: issue.keys as string[] } : {}),
      })),
    }) as never,
);

/** The shape issues of a relation of a parsed batch body, or undefined when its shape is right. */
export function relationShapeIssues(relation: CreateRelation): RelationShapeIssue[] | undefined {
  return (relation as unknown as { [shapeIssues]?: RelationShapeIssue[] })[shapeIssues];
}

export const CreateRelationsSchema = z
  .object({
    relations: z
      .array(lenientRelation)
      .min(1)
      .max(maxRelationsPerBatch)
      .meta({ description: `1 to ${maxRelationsPerBatch} relations, created together or not at all.` }),
  })
  .meta({ id: 'CreateCustomObjectRelationBatch', description: 'A batch of relations to create.' });

const RelationSideSchema = z
  .object({
    definition_slug: z.string().meta({ description: "The current slug of this side's definition." }),
    cardinality: z.enum(cardinalities).meta({ description: cardinalityDescription }),
    required: z
      .boolean()
      .meta({ description: 'Every record of this side must link to the other side at creation.' }),
    slug: z.string().meta({ description: relationSlugDescription }),
    title: z.string(),
    is_hidden: z.boolean().meta({ description: 'Left out of GraphQL.' }),
    translations: z.record(z.string(), z.object({ singular: z.string(), plural: z.string() })),
  })
  .meta({ id: 'CustomObjectRelationSide', description: 'One side of a relation.' });

export const RelationSchema = z
  .object({
    id: z.uuid(),
    a: RelationSideSchema,
    b: RelationSideSchema,
    read_only: z.boolean().meta({ description: 'A hint for user interfaces; not enforced by the API.' }),
  })
  .meta({
    id: 'CustomObjectRelation',
    description:
      'A relation between two custom-object definitions. It follows renames of either definition (sides ' +
      'render the current slugs).',
  });

export const RelationListSchema = pagedListSchema(RelationSchema, 'CustomObjectRelationList');

export const RelationListQuery = z.object({ ...paginationQuery });

export const RelationIdParams = z.object({
  relation_id: z.uuid().meta({ description: 'The id of the relation.' }),
});

export const DefinitionRelationsParams = z.object({
  definition_slug: z.string().max(63).meta({ description: 'The slug of the definition.' }),
});

export const CreateAssociationSchema = z
  .object({
    side_a_instance_id: z.uuid().meta({ description: "An instance of side a's definition." }),
    side_b_instance_id: z.uuid().meta({ description: "An instance of side b's definition." }),
  })
  .meta({
    id: 'CreateCustomObjectAssociation',
    description: 'Two instances to associate through a relation.',
  });

export const AssociationSchema = z
  .object({
    relation_id: z.uuid(),
    side_a_instance_id: z.uuid(),
    side_b_instance_id: z.uuid(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'CustomObjectAssociation', description: 'Two instances linked through a relation.' });

export type Association = z.output<typeof AssociationSchema>;

export const AssociationParams = z.object({
  relation_id: z.uuid().meta({ description: 'The id of the relation.' }),
  side_a_instance_id: z.uuid().meta({ description: 'The instance on side a.' }),
  side_b_instance_id: z.uuid().meta({ description: 'The instance on side b.' }),
});

export const AssociatedParams = z.object({
  definition_slug: z.string().max(63).meta({ description: "The slug of the instance's definition." }),
  instance_id: z.uuid().meta({ description: 'The id of the instance.' }),
  relation_slug: z.string().max(63).meta({
    description: 'The slug under which this definition reaches the other side (the other side’s `slug`).',
  }),
});

/**
 * The instances associated with one instance through one relation: instances of the other side's
 * definition, in the shape of every instance list (SPEC.md: `items` + `schema` + `page`), so
 * one published name.
 */
export const AssociatedListSchema = CustomObjectInstanceListSchema;
