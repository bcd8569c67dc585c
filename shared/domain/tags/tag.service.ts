/**
 * Tag rules. usage_count is not part of the tag item: it is a counter apart
 * (tag-usage.store.ts) that the writes attaching or detaching a tag change atomically in
 * their own transactions, so reading it never counts and a tag edit never overwrites it. Every
 * read here merges the counter in; every write strips it before storing.
 */
import type { z } from 'zod';
import type { Actor } from '../../auth/actor.ts';
import { domainEvent, previousAttributes } from '../../events/domain-event.ts';
import { defaultPageSize, pageOf } from '../../schema/list.ts';
import { newRecordId } from '../record-id.ts';
import { deleteExisting, mergePatch, updateVersioned } from '../versioned-write.ts';
import type { CreateTagSchema, StoredTag, Tag, TagListQuery, UpdateTagSchema } from './tag.schema.ts';
import { tagStore } from './tag.store.ts';
import { TagError } from './tag-error.ts';
import { tagUsageStore } from './tag-usage.store.ts';

const resource = (id: string) => ({ type: 'tag', id });

const tags = tagStore;

function withUsage(tag: StoredTag, usageCount: number): Tag {
  return { ...tag, usage_count: usageCount };
}

function stored(tag: Tag): StoredTag {
  const { usage_count: _counter, ...rest } = tag;
  return rest;
}

async function loadTag(ctx: Actor, id: string): Promise<Tag | undefined> {
  const [tag, usage] = await Promise.all([tags.of(ctx).get(id), tagUsageStore.of(ctx).get(id)]);
  return tag && withUsage(tag, usage);
}

/**
 * A page of tags through the list indexes (tag.list.ts), default order name ascending; the
 * usage counts of the page's tags come with one BatchGetItem. Ordered by usage_count, the walk
 * reads the tags' counter items and the page's tags are read by id.
 */
export async function listTags(ctx: Actor, query: z.output<typeof TagListQuery>) {
  const order = query.sort?.length ? query.sort : [{ field: 'name', direction: 'asc' as const }];
  const byUsage = order[0]?.field === 'usage_count';
  const { items, total } = await tags.of(ctx).page({
    order,
    page: query.page ?? 0,
    size: query.size ?? defaultPageSize,
    ...(byUsage ? { itemKeyOf: (entry) => tags.of(ctx).key(String(entry.id)) } : {}),
  });
  const usages = await tagUsageStore.of(ctx).getMany(items.map((tag) => tag.id));
  return {
    items: items.map((tag) => withUsage(tag, usages.get(tag.id) ?? 0)),
    page: pageOf(total, query),
  };
}

export async function getTag(ctx: Actor, id: string): Promise<Tag> {
  const tag = await loadTag(ctx, id);
  if (!tag) throw new TagError('not-found');
  return tag;
}

export async function createTag(ctx: Actor, input: z.output<typeof CreateTagSchema>): Promise<Tag> {
  const now = new Date().toISOString();
  const tag: Tag = {
    id: newRecordId(),
    name: input.name,
    color: input.color,
    created_at: now,
    updated_at: now,
    lock_version: 0,
    usage_count: 0,
  };
  await tags
    .of(ctx)
    .create(stored(tag), domainEvent(ctx, 'tag.created', resource(tag.id), tag), [
      tagUsageStore.of(ctx).create(tag.id),
    ]);
  return tag;
}

export async function updateTag(
  ctx: Actor,
  id: string,
  patch: z.output<typeof UpdateTagSchema>,
): Promise<Tag> {
  const { after } = await updateVersioned<Tag>({
    key: `tag:${ctx.workspaceId}:${id}`,
    // The count read here is what the response and the event show; the counter item itself is
    // never written by an edit, so a concurrent attach is not lost.
    load: () => loadTag(ctx, id),
    expectedVersion: patch.lock_version,
    apply: (current) => mergePatch(current, patch),
    save: (next, current) =>
      tags
        .of(ctx)
        .replace(
          stored(next),
          stored(current),
          domainEvent(ctx, 'tag.updated', resource(id), next, previousAttributes(current, next)),
        ),
  });
  return after;
}

/** Users still carrying a deleted tag stop showing it; its counter goes with it. */
export async function deleteTag(ctx: Actor, id: string): Promise<void> {
  await deleteExisting<Tag>({
    load: () => loadTag(ctx, id),
    remove: (current) =>
      tags
        .of(ctx)
        .remove(current, domainEvent(ctx, 'tag.deleted', resource(id), current), [
          tagUsageStore.of(ctx).discard(id),
        ]),
  });
}
