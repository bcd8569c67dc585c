/** Custom objects: parse, call the domain, respond. */
import * as definitions from '../../shared/domain/custom-objects/definition.service.ts';
import { createGroupHandler } from '../../shared/http/group-handler.ts';
import { customObjectInstanceRoutes } from '../../shared/routes/groups/custom-object-instances.routes.ts';
import { customObjectRelationRoutes } from '../../shared/routes/groups/custom-object-relations.routes.ts';
import { customObjectRoutes } from '../../shared/routes/groups/custom-objects.routes.ts';
import { instanceHandlers } from './instances.ts';
import { relationHandlers } from './relations.ts';

const routes = [...customObjectRoutes, ...customObjectInstanceRoutes, ...customObjectRelationRoutes];

export const handler = createGroupHandler(routes, {
  ...instanceHandlers,
  ...relationHandlers,
  'custom_objects.definitions.list': async ({ ctx, query }) => ({
    body: await definitions.listDefinitions(ctx, query),
  }),
  'custom_objects.definitions.create': async ({ ctx, body }) => {
    const definition = await definitions.createDefinition(ctx, body);
    return { body: definition, location: `/api/v2/custom-objects/definitions/${definition.slug}` };
  },
  'custom_objects.definitions.get': async ({ ctx, params }) => ({
    body: await definitions.getDefinition(ctx, params.definition_slug),
  }),
  'custom_objects.definitions.update': async ({ ctx, params, body }) => ({
    body: await definitions.updateDefinition(ctx, params.definition_slug, body),
  }),
  'custom_objects.definitions.delete': async ({ ctx, params }) => {
    await definitions.deleteDefinition(ctx, params.definition_slug);
    return {};
  },
});
