/** GraphQL: parse, call the domain, respond. */

import { runGraphQL } from '../../shared/graphql/execute.ts';
import { workspaceSchema } from '../../shared/graphql/schema-cache.ts';
import { header } from '../../shared/http/api-gateway.ts';
import { createGroupHandler } from '../../shared/http/group-handler.ts';
import { graphqlRoutes } from '../../shared/routes/groups/graphql.routes.ts';

export const handler = createGroupHandler(graphqlRoutes, {
  'graphql.schema': async ({ ctx }) => {
    const { compiled } = await workspaceSchema(ctx.workspaceId);
    return { body: compiled.sdl, contentType: 'text/plain; charset=utf-8' };
  },
  'graphql.query': async ({ ctx, body, event }) => {
    const answer = await runGraphQL(ctx, body, header(event, 'accept'));
    return { status: answer.status, body: answer.body, contentType: answer.contentType };
  },
});
