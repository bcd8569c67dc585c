/**
 * Custom-object instance (SPEC.md, "Custom-object instance"): `schema` (the definition it
 * follows), `data` (id, created_at, updated_at and the definition's own properties),
 * `display_value` and `lock_version`. Writes mirror it (API-DECISIONS.md): create `{data}`,
 * merge-patch `{data, lock_version}`. The data itself is validated against the definition with
 * Ajv (instance-validation.ts), so zod only checks the envelope. Published schema names:
 * CustomObjectInstance, CreateCustomObjectInstance, UpdateCustomObjectInstance,
 * CustomObjectInstanceList, PermissionMatrix.
 */
import * as z from 'zod';
import { lockVersion, storedVersion } from '../../schema/fields.ts';
import { PageSchema } from '../../schema/list.ts';
import { paginationQuery } from '../../schema/query-params.ts';
import { permissionLevels, principalTypes } from './permission-entry.ts';

export const jsonSchemaDialect = 'http://json-schema.org/draft-07/schema#';

export const InstanceSchemaRefSchema = z
  .object({
    $schema: z.string().meta({ description: 'The JSON Schema dialect of the definition.' }),
    slug: z.string(),
    title: z.string(),
    type: z.literal('object'),
  })
  .meta({ id: 'CustomObjectInstanceSchemaRef', description: 'The definition an instance follows.' });

export const CustomObjectInstanceSchema = z
  .object({
    schema: InstanceSchemaRefSchema,
    data: z
      .object({ id: z.uuid(), created_at: z.iso.datetime(), updated_at: z.iso.datetime() })
      .catchall(z.unknown())
      .meta({ description: 'id, created_at, updated_at and the properties of the definition.' }),
    display_value: z.string().meta({
      description:
        'A label for the record: its `name` or `title` property when it has one, else its first text ' +
        'property with a value (in definition order), else its id.',
    }),
    lock_version: storedVersion(),
  })
  .meta({ id: 'CustomObjectInstance', description: 'A record of a custom-object type.' });

export type CustomObjectInstance = z.infer<typeof CustomObjectInstanceSchema>;

const dataField = z.record(z.string(), z.unknown());

export const CreateCustomObjectInstanceSchema = z
  .object({
    data: dataField.meta({
      description:
        'The properties, validated against the definition: unknown properties, wrong types, formats and ' +
        'enum values are 422 at `#/data/<property>`; required (and readOnly) properties must be present.',
    }),
    relations: z
      .record(z.string(), z.union([z.uuid(), z.array(z.uuid()).max(1000)]))
      .optional()
      .meta({
        description:
          'Links made with the creation, by the name under which this type reaches the other side of a ' +
          'relation: one id or a list. A relation side marked required must be given (422 required-relation).',
      }),
  })
  .meta({ id: 'CreateCustomObjectInstance', description: 'A new instance.' });

export const UpdateCustomObjectInstanceSchema = z
  .object({
    data: dataField.optional().meta({
      description:
        'JSON Merge Patch of the properties (nested objects merge; null removes a property). The result is ' +
        'validated like a creation; a readOnly property may be set while absent, never changed.',
    }),
    lock_version: lockVersion(),
  })
  .meta({ id: 'UpdateCustomObjectInstance', description: 'A merge patch of an instance.' });

export const InstanceListQuery = z.object({
  ...paginationQuery,
  sort: z
    .array(z.string())
    .optional()
    .meta({
      description:
        'Repeated `sort=<field>:<asc|desc>`: id (the default, creation order), created_at, updated_at or a ' +
        'property (nested ones by their dotted path). Sorting by a property the definition does not index ' +
        'reads the whole collection.',
    }),
});

export const InstanceParams = z.object({
  definition_slug: z.string().max(63).meta({ description: 'The slug of the definition.' }),
  instance_id: z.uuid().meta({ description: 'The id of the instance.' }),
});

export const DefinitionParams = z.object({
  definition_slug: z.string().max(63).meta({ description: 'The slug of the definition.' }),
});

export const CustomObjectInstanceListSchema = z
  .object({
    items: z.array(CustomObjectInstanceSchema),
    schema: InstanceSchemaRefSchema,
    page: PageSchema,
  })
  .meta({ id: 'CustomObjectInstanceList', description: 'A page of instances of one definition.' });

const PermissionEntrySchema = z
  .object({
    principal_type: z.enum(principalTypes),
    role_name: z.string().max(64).optional().meta({ description: 'The role, when principal_type is role.' }),
    level: z
      .enum(permissionLevels)
      .meta({ description: 'read: read instances; write: read and write them.' }),
  })
  .meta({ id: 'PermissionEntry' });

export const PermissionMatrixSchema = z
  .object({ definition_slug: z.string(), entries: z.array(PermissionEntrySchema) })
  .meta({ id: 'PermissionMatrix', description: 'Who reads and writes the instances of a PROTECTED type.' });

export const ReplacePermissionMatrixSchema = z
  .object({
    entries: z
      .array(PermissionEntrySchema)
      .max(100)
      .meta({ description: 'The complete list (replace, not merge).' }),
  })
  .meta({ id: 'ReplacePermissionMatrix' });
