/** Settings singletons: parse, call the domain, respond. */
import { getSettings, updateSettings } from '../../shared/domain/settings/settings.service.ts';
import { createGroupHandler } from '../../shared/http/group-handler.ts';
import { settingsRoutes } from '../../shared/routes/groups/settings.routes.ts';

export const handler = createGroupHandler(settingsRoutes, {
  'settings.ai_assistant.get': async ({ ctx }) => ({ body: await getSettings(ctx, 'ai_assistant') }),
  'settings.ai_assistant.update': async ({ ctx, body }) => ({
    body: await updateSettings(ctx, 'ai_assistant', body as Record<string, unknown>),
  }),
  'settings.mcp.get': async ({ ctx }) => ({ body: await getSettings(ctx, 'mcp') }),
  'settings.mcp.update': async ({ ctx, body }) => ({
    body: await updateSettings(ctx, 'mcp', body as Record<string, unknown>),
  }),
  'settings.geoservices.get': async ({ ctx }) => ({ body: await getSettings(ctx, 'geoservices') }),
  'settings.geoservices.update': async ({ ctx, body }) => ({
    body: await updateSettings(ctx, 'geoservices', body as Record<string, unknown>),
  }),
  'settings.document_management.get': async ({ ctx }) => ({
    body: await getSettings(ctx, 'document_management'),
  }),
  'settings.document_management.update': async ({ ctx, body }) => ({
    body: await updateSettings(ctx, 'document_management', body as Record<string, unknown>),
  }),
  'settings.live_day.get': async ({ ctx }) => ({ body: await getSettings(ctx, 'live_day') }),
  'settings.live_day.update': async ({ ctx, body }) => ({
    body: await updateSettings(ctx, 'live_day', body as Record<string, unknown>),
  }),
});
