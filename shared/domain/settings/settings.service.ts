/**
 * The settings singletons: one item per workspace and singleton (settings.store.ts), absent
 * until the first PATCH (reads answer the defaults). A PATCH merges the fields sent into what is
 * stored (or the defaults) and, unless that changes nothing (then nothing is written and no event
 * emitted), puts it unconditionally with its `<name>_settings.updated` event in one transaction:
 * last write wins (SPEC.md rule 8), and same-container PATCHes of one singleton queue
 * (keyed-mutex.ts) so none is merged into a stale read.
 */

import type { Actor } from '../../auth/actor.ts';
import { domainEvent, previousAttributes } from '../../events/domain-event.ts';
import type { EventType } from '../../events/event-registry.ts';
import { serialized } from '../keyed-mutex.ts';
import { type assistantModes, toolModeOf } from './settings.schema.ts';
import { settingsStore } from './settings.store.ts';

type Fields = Record<string, unknown>;

interface Singleton {
  event: EventType;
  defaults: Fields;
  /** The published shape: stored fields plus what is derived from them. */
  represent: (fields: Fields) => Fields;
  /** Published fields stored under another name (published → stored), mapped back by `represent`. */
  storedNames?: Record<string, string>;
}

export const singletons = {
  ai_assistant: {
    event: 'ai_assistant_settings.updated',
    defaults: { mode: 'OFF' },
    represent: (fields) => {
      const mode = fields.mode as (typeof assistantModes)[number];
      return { mode, enabled: mode !== 'OFF', tool_mode: toolModeOf[mode] };
    },
  },
  mcp: {
    event: 'mcp_settings.updated',
    defaults: { enabled: false, access: 'READ_ONLY', allowed_origins: [] },
    represent: (fields) => ({
      enabled: fields.enabled,
      access: fields.access,
      allowed_origins: [...new Set(fields.allowed_origins as string[])],
    }),
  },
  geoservices: {
    event: 'geoservices_settings.updated',
    defaults: {
      provider: 'OPENSTREETMAP',
      geocoding_enabled: true,
      routing_enabled: true,
      distance_unit: 'KILOMETERS',
      default_country: 'DE',
    },
    // Published as is_geocoding_enabled / is_routing_enabled (SPEC.md, Booleans), stored under
    // the names they had first, so settings written before the rename read as they are.
    storedNames: { is_geocoding_enabled: 'geocoding_enabled', is_routing_enabled: 'routing_enabled' },
    represent: (fields) => ({
      provider: fields.provider,
      is_geocoding_enabled: fields.geocoding_enabled,
      is_routing_enabled: fields.routing_enabled,
      distance_unit: fields.distance_unit,
      default_country: fields.default_country,
    }),
  },
  document_management: {
    event: 'document_management_settings.updated',
    defaults: {
      enabled: true,
      max_file_size_mb: 25,
      allowed_file_types: ['PDF', 'PNG', 'JPEG', 'DOCX', 'XLSX', 'TXT'],
      retention_days: 30,
    },
    represent: (fields) => ({
      enabled: fields.enabled,
      max_file_size_mb: fields.max_file_size_mb,
      allowed_file_types: [...new Set(fields.allowed_file_types as string[])],
      retention_days: fields.retention_days,
    }),
  },
  live_day: {
    event: 'live_day_settings.updated',
    defaults: { arrival_radius_m: 150, dwell: 'PT2M' },
    represent: (fields) => ({ arrival_radius_m: fields.arrival_radius_m, dwell: fields.dwell }),
  },
} as const satisfies Record<string, Singleton>;

export type SingletonName = keyof typeof singletons;

function published(name: SingletonName, workspaceId: string, stored: Fields | undefined): Fields {
  const spec: Singleton = singletons[name];
  const fields = { ...spec.defaults, ...(stored ?? {}) };
  return {
    ...spec.represent(fields),
    tenant_id: workspaceId,
    ...(stored?.updated_at ? { updated_at: stored.updated_at } : {}),
  };
}

const listeners = new Map<SingletonName, Array<(workspaceId: string) => void>>();

/**
 * Tells this process's caches of a singleton (the live day's detector settings) that a workspace
 * changed it here, so they read it again at once; other containers see it when their cache lapses.
 */
export function onSettingsChanged(name: SingletonName, listener: (workspaceId: string) => void): void {
  listeners.set(name, [...(listeners.get(name) ?? []), listener]);
}

export async function getSettings(ctx: Pick<Actor, 'workspaceId'>, name: SingletonName): Promise<Fields> {
  return published(name, ctx.workspaceId, await settingsStore.of(ctx).get(name));
}

export async function updateSettings(ctx: Actor, name: SingletonName, patch: Fields): Promise<Fields> {
  const spec: Singleton = singletons[name];
  return serialized(`settings:${ctx.workspaceId}:${name}`, async () => {
    const stored = await settingsStore.of(ctx).getConsistent(name);
    // lock_version is accepted and ignored (settings.schema.ts): never stored.
    const sent = Object.fromEntries(
      Object.entries(patch)
        .filter(([key, value]) => value !== undefined && key !== 'lock_version')
        .map(([key, value]) => [spec.storedNames?.[key] ?? key, value]),
    );
    const next: Fields = {
      ...spec.defaults,
      ...(stored ?? {}),
      ...sent,
      updated_at: new Date().toISOString(),
    };
    const before = published(name, ctx.workspaceId, stored);
    const after = published(name, ctx.workspaceId, next);
    // Nothing changes: nothing is written and no event says otherwise.
    const { updated_at: _before, ...was } = before;
    const { updated_at: _after, ...now } = after;
    if (stored && JSON.stringify(was) === JSON.stringify(now)) return before;
    await settingsStore
      .of(ctx)
      .put(
        name,
        next,
        domainEvent(
          ctx,
          spec.event,
          { type: `${name}_settings`, id: ctx.workspaceId },
          after,
          previousAttributes(before, after),
        ),
      );
    for (const listener of listeners.get(name) ?? []) listener(ctx.workspaceId);
    return after;
  });
}
