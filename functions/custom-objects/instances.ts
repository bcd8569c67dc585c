/** Custom-object instances and the permission matrix: parse, call the domain, respond. */
import * as instances from '../../shared/domain/custom-objects/instance.service.ts';
import * as permissions from '../../shared/domain/custom-objects/permission.service.ts';
import type { GroupImplementation } from '../../shared/http/operation-kernel.ts';
import type { customObjectInstanceRoutes } from '../../shared/routes/groups/custom-object-instances.routes.ts';

export const instanceHandlers: GroupImplementation<(typeof customObjectInstanceRoutes)[number]> = {
  'custom_objects.instances.list': async ({ ctx, params, query }) => ({
    body: await instances.listInstances(ctx, params.definition_slug, query),
  }),
  'custom_objects.instances.create': async ({ ctx, params, body }) => {
    const instance = await instances.createInstance(ctx, params.definition_slug, body);
    return {
      body: instance,
      location: `/api/v2/custom-objects/instances/${params.definition_slug}/${instance.data.id}`,
    };
  },
  'custom_objects.instances.get': async ({ ctx, params }) => ({
    body: await instances.getInstance(ctx, params.definition_slug, params.instance_id),
  }),
  'custom_objects.instances.update': async ({ ctx, params, body }) => ({
    body: await instances.updateInstance(ctx, params.definition_slug, params.instance_id, body),
  }),
  'custom_objects.instances.delete': async ({ ctx, params }) => {
    await instances.deleteInstance(ctx, params.definition_slug, params.instance_id);
    return {};
  },
  'custom_objects.permissions.get': async ({ ctx, params }) => ({
    body: await permissions.getPermissions(ctx, params.definition_slug),
  }),
  'custom_objects.permissions.replace': async ({ ctx, params, body }) => ({
    body: await permissions.replacePermissions(ctx, params.definition_slug, body),
  }),
};
