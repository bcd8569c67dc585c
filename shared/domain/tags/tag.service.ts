/**
 * Tag rules. usage_count is kept on the tag item by the writes that attach or detach it (in
 * their own transactions), so reading it never counts.
 */
import { v7 as uuidv7 } from 'uuid';
import type { z } from 'zod';
import { tagStore } from '../../data/stores.ts';
import { domainEvent, previousAttributes } from '../../events/domain-event.ts';
import { paginate, sortItems } from '../../http/list.ts';
import { notFound } from '../../http/problem.ts';
import type { AuthenticatedContext } from '../../http/request-context.ts';
import { deleteExisting, mergePatch, updateVersioned } from '../versioned-write.ts';
import type { CreateTagSchema, Tag, TagListQuery, UpdateTagSchema } from './tag.schema.ts';

const resource = (id: string) => ({ type: 'tag', id });

export async function listTags(ctx: AuthenticatedContext, query: z.output<typeof TagListQuery>) {
  const tags = await tagStore.list(ctx.workspaceId);
  return paginate(sortItems(tags, query.sort ?? [], [{ field: 'name', direction: 'asc' }]), query);
}

export async function getTag(ctx: AuthenticatedContext, id: string): Promise<Tag> {
  const tag = await tagStore.get(ctx.workspaceId, id);
  if (!tag) throw notFound();
  return tag;
}

export async function createTag(
  ctx: AuthenticatedContext,
  input: z.output<typeof CreateTagSchema>,
): Promise<Tag> {
  const now = new Date().toISOString();
  const tag: Tag = {
    id: uuidv7(),
    name: input.name,
    color: input.color,
    created_at: now,
    updated_at: now,
    lock_version: 0,
    usage_count: 0,
  };
  await tagStore.create(ctx.workspaceId, tag, domainEvent(ctx, 'tag.created', resource(tag.id), tag));
  return tag;
}

export async function updateTag(
  ctx: AuthenticatedContext,
  id: string,
  patch: z.output<typeof UpdateTagSchema>,
) {
  const { after } = await updateVersioned<Tag>({
    key: `tag:${ctx.workspaceId}:${id}`,
    load: () => tagStore.get(ctx.workspaceId, id),
    expectedVersion: patch.lock_version,
    apply: (current) => mergePatch(current, patch),
    save: (next, current) =>
      tagStore.replace(
        ctx.workspaceId,
        next,
        current.lock_version,
        domainEvent(ctx, 'tag.updated', resource(id), next, previousAttributes(current, next)),
      ),
  });
  return after;
}

export async function deleteTag(ctx: AuthenticatedContext, id: string): Promise<void> {
  await deleteExisting<Tag>({
    load: () => tagStore.get(ctx.workspaceId, id),
    remove: (current) =>
      tagStore.remove(ctx.workspaceId, id, domainEvent(ctx, 'tag.deleted', resource(id), current)),
  });
}
