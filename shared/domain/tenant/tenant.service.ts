/**
 * The tenant record is the workspace item itself (keys.ts `workspace`): one record, so the name
 * the admin plane shows and the one a workspace edits are the same, and its lock_version moves
 * with every change of either (an admin plane state change included: a PATCH that read before it
 * gets 409 with lock_version, as SPEC.md rule 8 says). Edits are versioned writes with a
 * tenant.updated event. Reads are strongly consistent: the authentication cache keeps the
 * workspace for its status only, never for this record.
 */
import type { z } from 'zod';
import type { Actor } from '../../auth/actor.ts';
import { domainEvent, previousAttributes } from '../../events/domain-event.ts';
import { mergePatch, updateVersioned } from '../versioned-write.ts';
import type { Tenant, UpdateTenantSchema } from './tenant.schema.ts';
import { type TenantRecord, tenantStore } from './tenant.store.ts';
import { assetUrlOf, tenantEventFields } from './tenant-assets.ts';
import { TenantError } from './tenant-error.ts';

export type { TenantRecord };

export async function toTenant(record: TenantRecord): Promise<Tenant> {
  const [logoUrl, faviconUrl] = await Promise.all([
    record.logo ? assetUrlOf(record.logo) : undefined,
    record.favicon ? assetUrlOf(record.favicon) : undefined,
  ]);
  return {
    id: record.id,
    name: record.name,
    ...(record.language !== undefined ? { language: record.language } : {}),
    ...(record.region !== undefined ? { region: record.region } : {}),
    ...(record.timezone !== undefined ? { timezone: record.timezone } : {}),
    ...(logoUrl ? { logo_url: logoUrl } : {}),
    ...(faviconUrl ? { favicon_url: faviconUrl } : {}),
    created_at: record.created_at,
    updated_at: record.updated_at,
    lock_version: record.lock_version,
  };
}

export async function getTenant(ctx: Actor): Promise<Tenant> {
  const record = await tenantStore.of(ctx).get();
  if (!record) throw new TenantError('not-found');
  return toTenant(record);
}

export async function updateTenant(ctx: Actor, patch: z.output<typeof UpdateTenantSchema>): Promise<Tenant> {
  const { lock_version: expectedVersion, ...fields } = patch;
  const { after } = await updateVersioned<TenantRecord>({
    key: `workspace:${ctx.workspaceId}`,
    load: () => tenantStore.of(ctx).get(),
    expectedVersion,
    apply: (stored) =>
      mergePatch(stored as unknown as Record<string, unknown>, fields) as unknown as TenantRecord,
    save: (next, stored) =>
      tenantStore
        .of(ctx)
        .replace(
          next,
          stored,
          domainEvent(
            ctx,
            'tenant.updated',
            { type: 'tenant', id: ctx.workspaceId },
            tenantEventFields(next),
            previousAttributes(tenantEventFields(stored), tenantEventFields(next)),
          ),
        ),
  });
  return toTenant(after);
}
