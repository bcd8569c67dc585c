/**
 * Routes of the `settings` operation group (one Lambda): the workspace's settings singletons
 * (settings:read to read, settings:update to change; owners and admins). No lock_version: always
 * last write wins (SPEC.md rule 8).
 */
import type * as z from 'zod';
import {
  AiAssistantSettingsSchema,
  DocumentManagementSettingsSchema,
  GeoservicesSettingsSchema,
  LiveDaySettingsSchema,
  McpSettingsSchema,
  UpdateAiAssistantSettingsSchema,
  UpdateDocumentManagementSettingsSchema,
  UpdateGeoservicesSettingsSchema,
  UpdateLiveDaySettingsSchema,
  UpdateMcpSettingsSchema,
} from '../../domain/settings/settings.schema.ts';
import type { RouteSpec } from '../../http/route-spec.ts';

const tenantId = '019d2f40-0000-7000-8000-00000000a1b2';
const updatedAt = '2026-05-04T09:12:00Z';
const common = { group: 'settings', tags: ['Settings'], auth: 'bearer' } as const;
const rule =
  'No lock_version: the last write wins. Before the first change the defaults are answered (updated_at null). ' +
  'A PATCH is a merge patch: omitted fields keep their value; null or an unsupported value on any field is a ' +
  'field-level 422 (no field can be cleared: each has a default). Emits ';

function singletonRoutes<const P extends string, const N extends string>(spec: {
  path: P;
  name: N;
  title: string;
  about: string;
  item: z.ZodType;
  update: z.ZodType;
  example: Record<string, unknown>;
  patch: Record<string, unknown>;
  event: string;
}) {
  return [
    {
      ...common,
      grants: ['settings:read'],
      operationId: `settings.${spec.name}.get` as `settings.${N}.get`,
      method: 'GET',
      path: spec.path,
      summary: `Get the ${spec.title} settings`,
      description: `${spec.about}\n\n${rule}${spec.event}.`,
      examples: { response: spec.example },
      success: { status: 200, description: 'The settings.', schema: spec.item },
    },
    {
      ...common,
      grants: ['settings:update'],
      operationId: `settings.${spec.name}.update` as `settings.${N}.update`,
      method: 'PATCH',
      path: spec.path,
      summary: `Update the ${spec.title} settings (JSON Merge Patch)`,
      description: `${spec.about}\n\n${rule}${spec.event} with the previous values of the changed fields.`,
      examples: { request: spec.patch, response: spec.example },
      body: spec.update,
      mergePatch: true,
      success: { status: 200, description: 'The settings after the change.', schema: spec.item },
    },
  ] as const;
}

export const settingsRoutes = [
  ...singletonRoutes({
    path: '/api/v2/ai-assistant/settings',
    name: 'ai_assistant',
    title: 'AI assistant',
    about:
      'The AI assistant of the workspace: `mode` OFF, READ_ONLY (read-only tools) or READ_WRITE (read and ' +
      'write-capable tools). `enabled` is false exactly when mode is OFF; `tool_mode` names the tools mode allows.',
    item: AiAssistantSettingsSchema,
    update: UpdateAiAssistantSettingsSchema,
    example: {
      mode: 'READ_ONLY',
      enabled: true,
      tool_mode: 'READ_ONLY_TOOLS',
      tenant_id: tenantId,
      updated_at: updatedAt,
    },
    patch: { mode: 'READ_ONLY' },
    event: 'ai_assistant_settings.updated',
  }),
  ...singletonRoutes({
    path: '/api/v2/mcp/settings',
    name: 'mcp',
    title: 'MCP server',
    about:
      'The workspace’s Model Context Protocol server, through which its users’ AI clients reach the API: ' +
      'whether it answers, whether clients may change records, and the browser origins allowed to call it.',
    item: McpSettingsSchema,
    update: UpdateMcpSettingsSchema,
    example: {
      enabled: true,
      access: 'READ_ONLY',
      allowed_origins: ['https://claude.ai'],
      tenant_id: tenantId,
      updated_at: updatedAt,
    },
    patch: { enabled: true, allowed_origins: ['https://claude.ai'] },
    event: 'mcp_settings.updated',
  }),
  ...singletonRoutes({
    path: '/api/v2/geoservices/settings',
    name: 'geoservices',
    title: 'geoservices',
    about:
      'Geocoding of addresses and routing of tours: the provider, whether each service runs, the distance ' +
      'unit shown, and the country assumed for addresses without one.',
    item: GeoservicesSettingsSchema,
    update: UpdateGeoservicesSettingsSchema,
    example: {
      provider: 'OPENSTREETMAP',
      is_geocoding_enabled: true,
      is_routing_enabled: false,
      distance_unit: 'KILOMETERS',
      default_country: 'AT',
      tenant_id: tenantId,
      updated_at: updatedAt,
    },
    patch: { is_routing_enabled: false, default_country: 'at' },
    event: 'geoservices_settings.updated',
  }),
  ...singletonRoutes({
    path: '/api/v2/document-management/settings',
    name: 'document_management',
    title: 'document management',
    about:
      'Files attached to the workspace’s records: whether attaching is on, the largest file, the file types ' +
      'accepted and how long a file outlives its deleted record.',
    item: DocumentManagementSettingsSchema,
    update: UpdateDocumentManagementSettingsSchema,
    example: {
      enabled: true,
      max_file_size_mb: 10,
      allowed_file_types: ['PDF', 'PNG', 'JPEG'],
      retention_days: 30,
      tenant_id: tenantId,
      updated_at: updatedAt,
    },
    patch: { max_file_size_mb: 10, allowed_file_types: ['PDF', 'PNG', 'JPEG'] },
    event: 'document_management_settings.updated',
  }),
  ...singletonRoutes({
    path: '/api/v2/live-day/settings',
    name: 'live_day',
    title: 'live day',
    about:
      'How the live day tells arrivals and departures from telemetry: a technician has arrived at a stop when ' +
      'the positions of a device speaking for them stay within `arrival_radius_m` of the case for `dwell`, and ' +
      'has left when they stay beyond the wider exit circle for as long. A change applies to positions ' +
      'reported from at most a minute later.',
    item: LiveDaySettingsSchema,
    update: UpdateLiveDaySettingsSchema,
    example: { arrival_radius_m: 250, dwell: 'PT3M', tenant_id: tenantId, updated_at: updatedAt },
    patch: { arrival_radius_m: 250, dwell: 'PT3M' },
    event: 'live_day_settings.updated',
  }),
] as const satisfies readonly RouteSpec[];
