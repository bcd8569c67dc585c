/**
 * Mentions: `@[Name](user:<user_id>)` in a body names a user of the workspace (comment-markdown.ts
 * finds them). Every mentioned id must be a user of the caller's workspace (any status; API
 * clients are not users), else the body is 422 at #/body_markdown. The link text is the writer's;
 * readers get each mentioned user's current name in `mentions`.
 *
 * Suggestions for the `@` picker: active users of the workspace whose first name, last name or
 * e-mail has words starting with the search words (the users' search tokens: it costs its
 * matches), by last name, at most `limit`; each with the Markdown to insert.
 */

import type { Actor } from '../../auth/actor.ts';
import type { PrincipalRecord } from '../../data/directory.store.ts';
import { searchWords } from '../../data/list-patterns.ts';
import type { FieldError } from '../../schema/field-error.ts';
import { principalStore } from '../users/user.store.ts';
import { commentLimits } from './comment.schema.ts';

/** Field errors of mentioned ids that are not users of the workspace. */
export async function mentionErrors(workspaceId: string, ids: readonly string[]): Promise<FieldError[]> {
  if (ids.length === 0) return [];
  if (ids.length > commentLimits.mentions) {
    return [
      {
        type: 'field-invalid',
        pointer: '#/body_markdown',
        detail: `mentions at most ${commentLimits.mentions} users (${ids.length} here)`,
      },
    ];
  }
  const found = await principalStore.of(workspaceId).getMany(ids);
  return ids.flatMap((id, index) =>
    found[index]?.kind === 'user'
      ? []
      : [
          {
            type: 'field-invalid' as const,
            pointer: '#/body_markdown',
            detail: `mentions user:${id}, which is not a user of this workspace`,
            data: { construct: 'mention', user_id: id },
          },
        ],
  );
}

const escapeLinkText = (text: string) => text.replace(/([[\]\\])/g, '\\$1');

export function mentionMarkdown(user: Pick<PrincipalRecord, 'id' | 'firstname' | 'lastname'>): string {
  const name = [user.firstname, user.lastname].filter(Boolean).join(' ') || user.id;
  return `@[${escapeLinkText(name)}](user:${user.id})`;
}

export async function mentionSuggestions(
  ctx: Actor,
  query: { search?: string | undefined; limit?: number | undefined },
) {
  const search = query.search?.trim() ? searchWords(query.search) : [];
  const { items } = await principalStore.of(ctx).page({
    segments: ['ACTIVE'],
    order: [{ field: 'last_name', direction: 'asc' }],
    page: 0,
    size: query.limit ?? 10,
    ...(search.length > 0 ? { search } : {}),
  });
  return {
    items: items.map((user) => ({
      user_id: user.id,
      ...(user.firstname ? { first_name: user.firstname } : {}),
      ...(user.lastname ? { last_name: user.lastname } : {}),
      mention_markdown: mentionMarkdown(user),
    })),
  };
}
