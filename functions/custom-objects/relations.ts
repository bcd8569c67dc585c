/** Custom-object relations and associations: parse, call the domain, respond. */
import * as associations from '../../shared/domain/custom-objects/association.service.ts';
import * as relations from '../../shared/domain/custom-objects/relation.service.ts';
import type { GroupImplementation } from '../../shared/http/operation-kernel.ts';
import type { customObjectRelationRoutes } from '../../shared/routes/groups/custom-object-relations.routes.ts';

export const relationHandlers: GroupImplementation<(typeof customObjectRelationRoutes)[number]> = {
  'custom_objects.relations.create': async ({ ctx, body }) => ({
    body: await relations.createRelations(ctx, body),
    location: '/api/v2/custom-objects/relations',
  }),
  'custom_objects.relations.list': async ({ ctx, params, query }) => ({
    body: await relations.listRelationsOfDefinition(ctx, params.definition_slug, query),
  }),
  'custom_objects.relations.delete': async ({ ctx, params }) => {
    await relations.deleteRelation(ctx, params.relation_id);
    return {};
  },
  'custom_objects.associations.create': async ({ ctx, params, body }) => {
    const association = await associations.associate(ctx, params.relation_id, body);
    return {
      body: association,
      location: `/api/v2/custom-objects/relations/${association.relation_id}/associations/${association.side_a_instance_id}/${association.side_b_instance_id}`,
    };
  },
  'custom_objects.associations.delete': async ({ ctx, params }) => {
    await associations.removeAssociation(
      ctx,
      params.relation_id,
      params.side_a_instance_id,
      params.side_b_instance_id,
    );
    return {};
  },
  'custom_objects.instances.associated': async ({ ctx, params }) => ({
    body: await associations.listAssociated(
      ctx,
      params.definition_slug,
      params.instance_id,
      params.relation_slug,
    ),
  }),
};
