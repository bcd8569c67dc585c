/**
 * The tenant's logo and favicon: which checked file of the private upload bucket each one is
 * (fields `logo` / `favicon` of the workspace item, the tenant record), how a client reads it (a
 * short-lived presigned GET URL: the bucket is never public), and the one write that sets or
 * removes either: a versioned replace of the workspace item with a tenant.updated event, retried
 * when another write came in between (versioned-write.ts), as every tenant change.
 */

import { v7 as uuidv7 } from 'uuid';
import type { Actor } from '../../auth/actor.ts';
import { objectReadUrl } from '../../aws/upload-bucket.ts';
import { type DomainEvent, type EventActor, previousAttributes } from '../../events/domain-event.ts';
import { updateVersioned } from '../versioned-write.ts';
import { type TenantRecord, tenantStore } from './tenant.store.ts';

/** A checked file applied to the tenant. */
export interface TenantAsset {
  /** Object key in the upload bucket (`tenants/<workspace>/<kind>/<file_id>`). */
  key: string;
  content_type: string;
  /** The upload it came from (UUIDv7: later uploads sort after earlier ones). */
  file_id: string;
  applied_at: string;
}

export type TenantAssetKind = 'logo' | 'favicon';

/** How long a logo or favicon URL of the tenant representation is valid. */
export const assetUrlSeconds = 3600;

/** A URL that reads the asset for the next hour (a presigned GET of the private bucket). */
export async function assetUrlOf(asset: TenantAsset): Promise<string> {
  return objectReadUrl(asset.key, assetUrlSeconds);
}

/** Who changes the tenant's assets: the caller of a request, or the service on an uploader's behalf. */
export interface AssetWriter {
  workspaceId: string;
  actor: EventActor;
  request?: { requestId: string; correlationId: string };
}

function writerOf(by: Actor | AssetWriter): AssetWriter {
  if ('principal' in by) {
    return {
      workspaceId: by.workspaceId,
      actor: { type: 'USER', id: by.principal.id },
      request: { requestId: by.requestId, correlationId: by.correlationId },
    };
  }
  return by;
}

/**
 * The tenant as tenant.updated events carry it: its stable fields, no short-lived URLs. The
 * file ids say which logo and favicon it has, so a replaced logo shows in previous_attributes.
 */
export function tenantEventFields(record: TenantRecord): Record<string, unknown> {
  return {
    id: record.id,
    name: record.name,
    ...(record.language !== undefined ? { language: record.language } : {}),
    ...(record.region !== undefined ? { region: record.region } : {}),
    ...(record.timezone !== undefined ? { timezone: record.timezone } : {}),
    has_logo: record.logo !== undefined,
    has_favicon: record.favicon !== undefined,
    ...(record.logo ? { logo_file_id: record.logo.file_id } : {}),
    ...(record.favicon ? { favicon_file_id: record.favicon.file_id } : {}),
    created_at: record.created_at,
    updated_at: record.updated_at,
    lock_version: record.lock_version,
  };
}

function tenantUpdated(writer: AssetWriter, before: TenantRecord, after: TenantRecord): DomainEvent {
  return {
    id: uuidv7(),
    type: 'tenant.updated',
    occurred_at: new Date().toISOString(),
    workspace_id: writer.workspaceId,
    actor: writer.actor,
    ...(writer.request
      ? { request: { id: writer.request.requestId, correlation_id: writer.request.correlationId } }
      : {}),
    resource: { type: 'tenant', id: writer.workspaceId },
    data: {
      object: tenantEventFields(after),
      previous_attributes: previousAttributes(tenantEventFields(before), tenantEventFields(after)),
    },
  };
}

/** Thrown out of a versioned write whose outcome is "nothing to write". */
class Unchanged extends Error {
  readonly current: TenantRecord;

  constructor(current: TenantRecord) {
    super('unchanged');
    this.current = current;
  }
}

export interface AssetChange {
  /** What the tenant had before (the file to delete from the bucket when it was replaced). */
  previous: TenantAsset | undefined;
  /** What it has now. */
  current: TenantAsset | undefined;
}

/**
 * Set (`asset`) or remove (undefined) the tenant's logo or favicon. Writing what is already there
 * changes nothing (no version, no event): applying one upload twice, removing twice.
 * `onlyIfNewer`: keep an asset that came from a later upload (an older upload checked late must
 * not replace it); the answer's `current` then is that later asset.
 */
export async function setTenantAsset(
  by: Actor | AssetWriter,
  kind: TenantAssetKind,
  asset: TenantAsset | undefined,
  options: { onlyIfNewer?: boolean } = {},
): Promise<AssetChange> {
  const writer = writerOf(by);
  const store = tenantStore.of(writer.workspaceId);
  const keeps = (stored: TenantRecord) => {
    const present = stored[kind];
    if (present?.file_id === asset?.file_id) return true;
    return Boolean(options.onlyIfNewer && asset && present && present.file_id > asset.file_id);
  };
  try {
    const { before, after } = await updateVersioned<TenantRecord>({
      key: `workspace:${writer.workspaceId}`,
      load: () => store.get(),
      expectedVersion: undefined,
      apply: (stored) => {
        if (keeps(stored)) throw new Unchanged(stored);
        const next: TenantRecord = { ...stored };
        if (asset) next[kind] = asset;
        else delete next[kind];
        return next;
      },
      save: (next, stored) => store.replace(next, stored, tenantUpdated(writer, stored, next)),
    });
    return { previous: before[kind], current: after[kind] };
  } catch (error) {
    if (error instanceof Unchanged) return { previous: error.current[kind], current: error.current[kind] };
    throw error;
  }
}
