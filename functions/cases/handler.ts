/** Cases: parse, call the domain, respond. */
import * as cases from '../../shared/domain/cases/case.service.ts';
import { createGroupHandler } from '../../shared/http/group-handler.ts';
import { caseRoutes } from '../../shared/routes/groups/cases.routes.ts';

export const handler = createGroupHandler(caseRoutes, {
  'cases.list': async ({ ctx, query }) => ({ body: await cases.listCases(ctx, query) }),
  'cases.create': async ({ ctx, body }) => {
    const created = await cases.createCase(ctx, body);
    return { body: created, location: `/api/v2/cases/${created.id}` };
  },
  'cases.get': async ({ ctx, params }) => ({ body: await cases.getCase(ctx, params.case_id) }),
  'cases.update': async ({ ctx, params, body }) => ({
    body: await cases.updateCase(ctx, params.case_id, body),
  }),
  'cases.delete': async ({ ctx, params }) => {
    await cases.deleteCase(ctx, params.case_id);
    return {};
  },
});
