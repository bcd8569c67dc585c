/**
 * Custom-object definition (API-DECISIONS.md: `slug`, `title`, `access_class` and the JSON-Schema
 * keywords flat beside them). The keywords are validated by definition-rules.ts, which points at
 * the exact field; zod checks the envelope. Readers: custom-objects:definitions:read; writers:
 * custom-objects:definitions:update. Published schema names: CustomObjectDefinition,
 * CreateCustomObjectDefinition, UpdateCustomObjectDefinition, CustomObjectDefinitionList.
 */
import * as z from 'zod';
import { lockVersion, storedVersion, text } from '../../schema/fields.ts';
import { pagedListSchema } from '../../schema/list.ts';
import { paginationQuery, sortParam } from '../../schema/query-params.ts';
import { maxProperties } from './definition-rules.ts';

export const accessClasses = ['STANDARD', 'PROTECTED'] as const;

const accessClass = z.enum(accessClasses).meta({
  description:
    'STANDARD: instances follow the role grants; PROTECTED: a permission matrix decides who reads and writes.',
});
const propertySchema = z.record(z.string(), z.unknown()).meta({
  description:
    'JSON-Schema property schemas by name. Keywords: type (string, number, integer, boolean, array, object), ' +
    'format (uuid, date, time, date-time, email, uri; strings only), readOnly, enum (strings), items (arrays), ' +
    'properties and required (objects, up to 5 levels), title, description.',
});

const indexedDescription =
  'Up to 3 top-level properties of type string, number, integer or boolean that the data layer indexes: ' +
  'sorting on them and filtering them with _eq, _in, _gt, _gte, _lt, _lte costs the page, not the collection. ' +
  'They may change only while the definition has no instances.';

export const CustomObjectDefinitionSchema = z
  .object({
    id: z
      .uuid()
      .meta({ description: 'Stable id: webhook subscriptions and events refer to it; a rename keeps it.' }),
    slug: z
      .string()
      .meta({ description: 'Unique in the workspace; names the REST paths, events and the GraphQL type.' }),
    title: z.string(),
    access_class: accessClass,
    type: z.literal('object'),
    properties: propertySchema,
    required: z.array(z.string()).optional().meta({ description: 'Properties a write must carry.' }),
    indexed_properties: z.array(z.string()).optional().meta({
      description: indexedDescription,
    }),
    description: z.string().optional(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
    lock_version: storedVersion(),
  })
  .meta({ id: 'CustomObjectDefinition', description: 'A custom-object type of the workspace.' });

export type CustomObjectDefinition = z.infer<typeof CustomObjectDefinitionSchema>;

const slug = z.string().meta({
  description: 'Lower-case letter first, then a-z, 0-9 and _ (at most 63); unique in the workspace.',
});

export const CreateCustomObjectDefinitionSchema = z
  .object({
    slug,
    title: text({ max: 255 }),
    access_class: accessClass.optional().meta({ description: 'Default STANDARD.' }),
    type: z.literal('object').optional().meta({ description: 'Always object (the default).' }),
    properties: propertySchema.optional().meta({ description: 'Default: none.' }),
    required: z.array(z.string()).max(maxProperties).optional(),
    indexed_properties: z
      .array(z.string())
      .max(maxProperties)
      .optional()
      .meta({ description: indexedDescription }),
    description: text({ max: 2048 }).optional(),
  })
  // Other keys are read so they can be refused by name (definition.service.ts), not dropped; the
  // document says what a client meets: no other key is accepted (an object, not a map).
  .catchall(z.unknown())
  .meta({
    id: 'CreateCustomObjectDefinition',
    description: 'Any other top-level keyword is 422 at its pointer.',
    additionalProperties: false,
  });

export const UpdateCustomObjectDefinitionSchema = z
  .object({
    slug: slug.optional().meta({
      description: 'Renames the type (REST paths, event types and the GraphQL type follow; its id stays).',
    }),
    title: text({ max: 255 }).optional(),
    access_class: accessClass.optional(),
    properties: z.record(z.string(), z.unknown()).optional().meta({
      description: 'Merged as JSON Merge Patch: a property set to null is removed, others replaced.',
    }),
    required: z
      .array(z.string())
      .max(maxProperties)
      .nullable()
      .optional()
      .meta({ description: 'Replaces the list; null clears it.' }),
    indexed_properties: z
      .array(z.string())
      .max(maxProperties)
      .nullable()
      .optional()
      .meta({ description: `${indexedDescription} null clears the list.` }),
    description: text({ max: 2048 }).nullable().optional(),
    lock_version: lockVersion(),
  })
  .catchall(z.unknown())
  .meta({
    id: 'UpdateCustomObjectDefinition',
    description: 'JSON Merge Patch of a definition; any other top-level keyword is 422 at its pointer.',
    additionalProperties: false,
  });

export const definitionSortFields = ['slug', 'title', 'created_at', 'updated_at'] as const;

export const DefinitionListQuery = z.object({ ...paginationQuery, sort: sortParam(definitionSortFields) });

export const DefinitionSlugParams = z.object({
  definition_slug: z.string().max(63).meta({ description: 'The slug of the definition.' }),
});

export const CustomObjectDefinitionListSchema = pagedListSchema(
  CustomObjectDefinitionSchema,
  'CustomObjectDefinitionList',
);
