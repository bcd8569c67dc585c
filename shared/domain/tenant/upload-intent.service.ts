/**
 * Logo and favicon uploads, in three steps:
 *
 * 1. Intent (POST …/logo-uploads): the service picks the key, signs a POST form for exactly that
 *    key with the declared Content-Type, a size range 1..limit and an expiry, and keeps an intent
 *    with its tenant.logo_upload.created (tenant.favicon_upload.created) event in one transaction:
 *    a create the API can read back leaves an audit entry (its status record, never the form).
 *    An unsupported type or a blank name is a 422 of the route's schema, before anything is signed.
 * 2. The browser POSTs the file straight to the private bucket, under `pending/`.
 * 3. Check and apply (`checkUpload`): the stored object is read and judged on its own bytes
 *    (upload-check.ts), since no emulator enforces a POST policy and a browser can lie. A file
 *    that passes is copied to its asset key (the bytes that were checked, not whatever the
 *    still-valid form may have put there since) and becomes the tenant's logo or favicon; one
 *    that fails is deleted and the intent says why. On AWS an S3 event runs the check as soon as
 *    the file lands (functions/tenant-upload-check); the status read runs it too, which is
 *    the only trigger locally and the fallback on AWS. Both may run at once: every write is
 *    idempotent or conditional, so the loser reads the winner's outcome.
 */
import { v7 as uuidv7 } from 'uuid';
import type { Actor } from '../../auth/actor.ts';
import {
  deleteObject,
  describeObject,
  presignUploadForm,
  readObject,
  writeObject,
} from '../../aws/upload-bucket.ts';
import { config } from '../../config.ts';
import { DataError } from '../../data/data-error.ts';
import { domainEvent } from '../../events/domain-event.ts';
import { logger } from '../../observability/logger.ts';
import { type AssetWriter, setTenantAsset } from './tenant-assets.ts';
import { TenantError } from './tenant-error.ts';
import type { CreateUpload, UploadIntent, UploadStatusRecord } from './upload.schema.ts';
import {
  type CheckResult,
  checkContent,
  checkStoredObject,
  type RejectionReason,
  type UploadKind,
  uploadRules,
} from './upload-check.ts';
import { type UploadIntentRecord, uploadIntentStore } from './upload-intent.store.ts';

/**
 * How much later than the form's expiry a stored file may say it arrived: S3 stamps an object
 * with the second its upload began, truncated, and its clock and ours may differ a little.
 */
const arrivalToleranceMs = 2_000;

/** Where the form puts a file, and where a checked file is kept. */
export const uploadKeys = {
  pending: (workspaceId: string, kind: UploadKind, fileId: string) =>
    `pending/tenants/${workspaceId}/${kind}/${fileId}`,
  asset: (workspaceId: string, kind: UploadKind, fileId: string) =>
    `tenants/${workspaceId}/${kind}/${fileId}`,
};

/** The workspace, kind and file id a pending key names (the S3 event gives only the key). */
export function parsePendingKey(
  key: string,
): { workspaceId: string; kind: UploadKind; fileId: string } | undefined {
  const match = /^pending\/tenants\/([0-9a-f-]{36})\/(logo|favicon)\/([0-9a-f-]{36})$/.exec(key);
  if (!match) return undefined;
  return { workspaceId: match[1] as string, kind: match[2] as UploadKind, fileId: match[3] as string };
}

export async function createUpload(ctx: Actor, kind: UploadKind, input: CreateUpload): Promise<UploadIntent> {
  const fileId = uuidv7();
  const seconds = config().uploadFormSeconds;
  const pendingKey = uploadKeys.pending(ctx.workspaceId, kind, fileId);
  const form = await presignUploadForm({
    key: pendingKey,
    contentType: input.mime_type,
    maxBytes: uploadRules[kind].maxBytes,
    expiresInSeconds: seconds,
  });
  const expiresAt = form.expiresAt;
  const intent: UploadIntentRecord = {
    id: fileId,
    workspace_id: ctx.workspaceId,
    kind,
    status: 'PENDING',
    applied: false,
    original_file_name: input.original_file_name,
    mime_type: input.mime_type,
    pending_key: pendingKey,
    asset_key: uploadKeys.asset(ctx.workspaceId, kind, fileId),
    expires_at_utc: expiresAt,
    created_at: new Date().toISOString(),
    created_by: ctx.principal.id,
    lock_version: 0,
  };
  const type = kind === 'logo' ? 'tenant.logo_upload.created' : 'tenant.favicon_upload.created';
  await uploadIntentStore
    .of(ctx)
    .create(
      intent,
      domainEvent(
        ctx,
        type,
        { type: `tenant.${kind}_upload`, id: fileId },
        { id: fileId, ...toStatusRecord(intent) },
      ),
    );
  return { file_id: fileId, upload_fields: { url: form.url, ...form.fields }, expires_at_utc: expiresAt };
}

/** The status record of an upload of this workspace and kind; checks the file when it is still pending. */
export async function getUploadStatus(
  ctx: Actor,
  kind: UploadKind,
  fileId: string,
): Promise<UploadStatusRecord> {
  const intent = await uploadIntentStore.of(ctx).get(fileId);
  // A favicon's id under logo-uploads names no logo upload.
  if (!intent || intent.kind !== kind)
    throw new TenantError('not-found', { detail: 'No upload with this file_id exists.' });
  const checked = await checkUpload(intent, {
    workspaceId: ctx.workspaceId,
    actor: { type: 'USER', id: intent.created_by },
    request: { requestId: ctx.requestId, correlationId: ctx.correlationId },
  });
  return toStatusRecord(checked);
}

export function toStatusRecord(intent: UploadIntentRecord, now = Date.now()): UploadStatusRecord {
  const expired = intent.status === 'PENDING' && now > Date.parse(intent.expires_at_utc);
  return {
    file_id: intent.id,
    kind: intent.kind,
    status: expired ? 'EXPIRED' : intent.status,
    applied: intent.applied,
    ...(intent.reason ? { reason: intent.reason } : {}),
    ...(intent.reason_detail ? { reason_detail: intent.reason_detail } : {}),
    original_file_name: intent.original_file_name,
    mime_type: intent.mime_type,
    ...(intent.size_bytes !== undefined ? { size_bytes: intent.size_bytes } : {}),
    expires_at_utc: intent.expires_at_utc,
    created_at: intent.created_at,
    ...(intent.checked_at ? { checked_at: intent.checked_at } : {}),
  };
}

/**
 * Judge a pending upload's stored file and apply or reject it. Answers the intent as it stands
 * afterwards: unchanged while no file has arrived (PENDING, EXPIRED once its form has expired:
 * a file that began arriving in time is still checked when it lands), and as it was when
 * another check got there first. `writer` names the uploader as the actor of the tenant change.
 */
export async function checkUpload(
  intent: UploadIntentRecord,
  writer: AssetWriter,
): Promise<UploadIntentRecord> {
  if (intent.status !== 'PENDING') return intent;
  const { kind, mime_type: declaredType } = intent;
  const stored = await describeObject(intent.pending_key);
  if (!stored) return intent;
  const arrivedLate =
    stored.lastModified !== undefined &&
    stored.lastModified.getTime() > Date.parse(intent.expires_at_utc) + arrivalToleranceMs;
  if (arrivedLate) {
    return reject(intent, stored.size, {
      ok: false,
      reason: 'form-expired',
      detail: `the file arrived at ${stored.lastModified?.toISOString()}, after the form expired at ${intent.expires_at_utc}`,
    });
  }
  const stat = checkStoredObject({ kind, declaredType, size: stored.size, contentType: stored.contentType });
  if (!stat.ok) return reject(intent, stored.size, stat);

  // One byte past the limit tells an object that grew since HeadObject (the form was used again).
  const bytes = await readObject(intent.pending_key, uploadRules[kind].maxBytes + 1);
  if (!bytes) return intent;
  const sizeCheck = checkStoredObject({ kind, declaredType, size: bytes.length, contentType: declaredType });
  if (!sizeCheck.ok) return reject(intent, bytes.length, sizeCheck);
  const content = checkContent(declaredType, bytes);
  if (!content.ok) return reject(intent, bytes.length, content);

  // What was checked is what is kept: the still-valid form could replace the pending object.
  await writeObject(intent.asset_key, bytes, declaredType);
  const checkedAt = new Date().toISOString();
  const change = await setTenantAsset(
    writer,
    kind,
    { key: intent.asset_key, content_type: declaredType, file_id: intent.id, applied_at: checkedAt },
    { onlyIfNewer: true },
  );
  const applied = change.current?.file_id === intent.id;
  const outcome = await settle(intent, {
    ...intent,
    status: applied ? 'UPLOADED' : 'SUPERSEDED',
    applied,
    size_bytes: bytes.length,
    checked_at: checkedAt,
  });
  await bestEffort('delete the pending upload', () => deleteObject(intent.pending_key));
  if (!applied) await bestEffort('delete a superseded upload', () => deleteObject(intent.asset_key));
  const replaced = change.previous;
  if (applied && replaced && replaced.key !== intent.asset_key) {
    await bestEffort('delete the replaced asset', () => deleteObject(replaced.key));
  }
  return outcome;
}

async function reject(
  intent: UploadIntentRecord,
  size: number,
  result: Extract<CheckResult, { ok: false }>,
): Promise<UploadIntentRecord> {
  const reason: RejectionReason = result.reason;
  const outcome = await settle(intent, {
    ...intent,
    status: 'REJECTED',
    applied: false,
    reason,
    reason_detail: result.detail,
    size_bytes: size,
    checked_at: new Date().toISOString(),
  });
  if (outcome.status === 'REJECTED') {
    await bestEffort('delete a rejected upload', () => deleteObject(intent.pending_key));
  }
  return outcome;
}

/** Store the outcome; when another check stored one first, that one stands. */
async function settle(current: UploadIntentRecord, next: UploadIntentRecord): Promise<UploadIntentRecord> {
  try {
    await uploadIntentStore.of(current.workspace_id).replace(next, current);
    return { ...next, lock_version: current.lock_version + 1 };
  } catch (error) {
    if (!(error instanceof DataError) || error.code !== 'version-conflict') throw error;
    const winner = await uploadIntentStore.of(current.workspace_id).get(current.id);
    if (!winner) throw new TenantError('not-found', { detail: 'No upload with this file_id exists.' });
    return winner;
  }
}

/** Clean-up that must not fail the answer: the bucket's lifecycle rule removes what is left under pending/. */
async function bestEffort(what: string, task: () => Promise<void>): Promise<void> {
  try {
    await task();
  } catch (error) {
    logger.warn(`uploads: could not ${what}`, {
      error: error instanceof Error ? error.message : String(error),
    });
  }
}

/** Remove the tenant's logo or favicon (nothing to remove is no error) and its file. */
export async function removeTenantAsset(ctx: Actor, kind: UploadKind): Promise<void> {
  const { previous } = await setTenantAsset(ctx, kind, undefined);
  if (previous) await bestEffort(`delete the removed ${kind}`, () => deleteObject(previous.key));
}

/**
 * The check as an S3 notification runs it (functions/tenant-upload-check): the key names the
 * workspace, kind and upload; anything else under the bucket, or an upload already settled, is
 * left alone. The uploader is the actor of the tenant change; there is no request.
 */
export async function checkUploadedKey(key: string): Promise<UploadStatusRecord | undefined> {
  const named = parsePendingKey(key);
  if (!named) return undefined;
  const intent = await uploadIntentStore.of(named.workspaceId).get(named.fileId);
  if (!intent || intent.kind !== named.kind || intent.pending_key !== key) return undefined;
  const checked = await checkUpload(intent, {
    workspaceId: named.workspaceId,
    actor: { type: 'USER', id: intent.created_by },
  });
  return toStatusRecord(checked);
}
