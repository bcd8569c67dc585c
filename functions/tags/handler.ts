/** Tags: parse, call the domain, respond. */
import * as tags from '../../shared/domain/tags/tag.service.ts';
import { createGroupHandler } from '../../shared/http/group-handler.ts';
import { tagRoutes } from '../../shared/routes/groups/tags.routes.ts';

export const handler = createGroupHandler(tagRoutes, {
  'tags.list': async ({ ctx, query }) => ({ body: await tags.listTags(ctx, query) }),
  'tags.create': async ({ ctx, body }) => {
    const tag = await tags.createTag(ctx, body);
    return { body: tag, location: `/api/v2/tags/${tag.id}` };
  },
  'tags.get': async ({ ctx, params }) => ({ body: await tags.getTag(ctx, params.tag_id) }),
  'tags.update': async ({ ctx, params, body }) => ({ body: await tags.updateTag(ctx, params.tag_id, body) }),
  'tags.delete': async ({ ctx, params }) => {
    await tags.deleteTag(ctx, params.tag_id);
    return {};
  },
});
