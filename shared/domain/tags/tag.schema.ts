/**
 * Tag: a coloured label users (and later other resources) carry. Everyone in the workspace
 * reads tags; writing them needs `tags:update`.
 */
import * as z from 'zod';
import { cssColor, lockVersion, storedVersion, text } from '../../schema/fields.ts';
import { pagedListSchema } from '../../schema/list.ts';
import { paginationQuery, sortParam } from '../../schema/query-params.ts';

export const TagSchema = z
  .object({
    id: z.uuid().meta({ description: 'Identifier of the tag; users refer to it in `tag_ids`.' }),
    name: z.string().meta({ description: 'Display name; need not be unique in the workspace.' }),
    color: z.string().meta({ description: 'Hex or CSS colour value.' }),
    created_at: z.iso.datetime().meta({ description: 'When the tag was created.' }),
    updated_at: z.iso.datetime().meta({
      description: 'When the tag itself was last changed (users gaining or losing it do not change it).',
    }),
    lock_version: storedVersion().meta({
      description: 'Starts at 0 and increments with every change of the tag (not with usage_count).',
    }),
    usage_count: z
      .int()
      .min(0)
      .meta({
        description:
          'How many users carry this tag right now; read-only, changes when users gain or lose the tag ' +
          '(POST /users with tag_ids, PUT /users/{user_id}/tags). Sortable.',
      }),
  })
  .meta({
    id: 'Tag',
    description:
      'A coloured label users carry (tag_ids). A deleted tag no longer appears on any user (their records ' +
      'are not rewritten: lock_version stays).',
  });

export type Tag = z.infer<typeof TagSchema>;

/**
 * A tag as its own item holds it: usage_count lives in a counter item apart (tag-usage.store.ts),
 * so attaching a tag never conflicts with an edit of the tag.
 */
export type StoredTag = Omit<Tag, 'usage_count'>;

export const CreateTagSchema = z
  .object({
    name: text({ max: 255 }).meta({ description: 'Display name; need not be unique in the workspace.' }),
    color: cssColor(),
  })
  .meta({ id: 'CreateTag' });

export const UpdateTagSchema = z
  .object({
    name: text({ max: 255 }).optional().meta({ description: 'Display name; cannot be cleared.' }),
    color: cssColor().optional(),
    lock_version: lockVersion(),
  })
  .meta({ id: 'UpdateTag', description: 'JSON Merge Patch of a tag; null or blank name/color is rejected.' });

export const tagSortFields = ['name', 'color', 'created_at', 'updated_at', 'usage_count', 'id'] as const;

export const TagListQuery = z.object({ ...paginationQuery, sort: sortParam(tagSortFields) });

export const TagIdParams = z.object({ tag_id: z.uuid() });

export const TagListSchema = pagedListSchema(TagSchema, 'TagList');
