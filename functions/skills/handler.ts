/** Skill definitions: parse, call the domain, respond. */
import * as skills from '../../shared/domain/skills/skill.service.ts';
import { createGroupHandler } from '../../shared/http/group-handler.ts';
import { skillRoutes } from '../../shared/routes/groups/skills.routes.ts';

export const handler = createGroupHandler(skillRoutes, {
  'skills.list': async ({ ctx, query }) => ({ body: await skills.listSkills(ctx, query) }),
  'skills.create': async ({ ctx, body }) => {
    const skill = await skills.createSkill(ctx, body);
    return { body: skill, location: `/api/v2/skills/${skill.id}` };
  },
  'skills.get': async ({ ctx, params }) => ({ body: await skills.getSkill(ctx, params.skill_id) }),
  'skills.update': async ({ ctx, params, body }) => ({
    body: await skills.updateSkill(ctx, params.skill_id, body),
  }),
  'skills.delete': async ({ ctx, params }) => {
    await skills.deleteSkill(ctx, params.skill_id);
    return {};
  },
});
