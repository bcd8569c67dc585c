/** Routes of the `tags` operation group (one Lambda); part of the route table. */
import {
  CreateTagSchema,
  TagIdParams,
  TagListQuery,
  TagListSchema,
  TagSchema,
  UpdateTagSchema,
} from '../../domain/tags/tag.schema.ts';
import type { RouteSpec } from '../../http/route-spec.ts';
import { crudRoutes } from '../crud-routes.ts';

/** Every authenticated user reads tags; writing them needs tags:update (SPEC.md). */
export const tagRoutes = crudRoutes({
  group: 'tags',
  collection: '/api/v2/tags',
  idParam: 'tag_id',
  singular: 'tag',
  plural: 'tags',
  tag: 'Tags',
  readGrants: ['tags:read'],
  writeGrants: ['tags:update'],
  schemas: {
    listQuery: TagListQuery,
    idParams: TagIdParams,
    item: TagSchema,
    list: TagListSchema,
    create: CreateTagSchema,
    update: UpdateTagSchema,
  },
  docs: {
    about:
      'A tag is a coloured label that users carry (`tag_ids` on the user). `usage_count` is the number of ' +
      'users carrying the tag right now: it moves when users gain or lose the tag (creating a user, ' +
      'patching its `tag_ids`, `PUT /api/v2/users/{user_id}/tags`), never through the tag itself.',
    list:
      'Default order: `name` ascending, ignoring letter case and comparing numbers by value, ties by `id`. ' +
      '`sort=usage_count:desc` puts the most used tags first.',
    create:
      '`name` and `color` are required. `color` takes a hex colour (`#rgb`, `#rgba`, `#rrggbb`, ' +
      '`#rrggbbaa`), a CSS colour name (`crimson`) or an `rgb()`, `rgba()`, `hsl()` or `hsla()` value, and ' +
      'is stored as sent; anything else is 422 validation-failed. Names need not be unique. The new tag ' +
      'starts at lock_version 0 and usage_count 0; a tag.created event records it in the audit log.',
    update:
      '`name` and `color` cannot be null or blank (422 field-required); a new `color` is checked as on ' +
      'create. An edit leaves `usage_count` untouched, and users carrying the tag show the new name and ' +
      'colour on their next read. A tag.updated event records the previous values of the changed fields.',
    delete:
      'The tag disappears from the `tags` of every user who carried it (those users are not rewritten: ' +
      'their lock_version stays) and its usage counter is dropped. A tag.deleted event records it in the ' +
      'audit log.',
  },
  examples: {
    item: {
      id: '019c22f5-a978-7283-a8a0-96f767fe08d6',
      name: 'Night shift',
      color: '#1f6feb',
      created_at: '2026-02-03T10:04:11.000Z',
      updated_at: '2026-04-14T07:45:12.000Z',
      lock_version: 1,
      usage_count: 7,
    },
    create: { name: 'Night shift', color: '#1f6feb' },
    update: { color: '#1f6feb', lock_version: 0 },
  },
}) satisfies readonly RouteSpec[];
