/** The admin control plane (`/admin-v1`): parse, call the domain, respond. */
import * as admin from '../../shared/domain/workspaces/workspace-admin.service.ts';
import { header } from '../../shared/http/api-gateway.ts';
import { createGroupHandler } from '../../shared/http/group-handler.ts';
import { adminRoutes } from '../../shared/routes/groups/admin.routes.ts';

const workspacePath = (id: string) => `/admin-v1/workspaces/${id}`;

export const handler = createGroupHandler(adminRoutes, {
  'admin.workspaces.list': async ({ query }) => ({ body: await admin.listWorkspaces(query) }),
  'admin.workspaces.create': async ({ ctx, body, event }) => {
    const workspace = await admin.createWorkspace(ctx, body, header(event, 'origin'));
    return { body: workspace, location: workspacePath(workspace.id) };
  },
  'admin.workspaces.get': async ({ params }) => ({ body: await admin.getWorkspace(params.workspace_id) }),
  'admin.workspaces.activate': async ({ ctx, params }) => ({
    body: await admin.changeWorkspaceState(ctx, params.workspace_id, 'activate'),
  }),
  'admin.workspaces.deactivate': async ({ ctx, params }) => ({
    body: await admin.changeWorkspaceState(ctx, params.workspace_id, 'deactivate'),
  }),
  'admin.workspaces.billing-lock': async ({ ctx, params }) => ({
    body: await admin.changeWorkspaceState(ctx, params.workspace_id, 'billing-lock'),
  }),
  'admin.workspaces.billing-unlock': async ({ ctx, params }) => ({
    body: await admin.changeWorkspaceState(ctx, params.workspace_id, 'billing-unlock'),
  }),
  'admin.clients.create': async ({ params, body }) => {
    const client = await admin.createApiClient(params.workspace_id, body);
    return {
      body: client,
      location: `${workspacePath(params.workspace_id)}/clients/${encodeURIComponent(client.client_id)}`,
    };
  },
  'admin.clients.get': async ({ params }) => ({
    body: await admin.getApiClient(params.workspace_id, params.client_id),
  }),
});
