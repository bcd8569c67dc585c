/**
 * Comment attachments, in three steps (the flow of the tenant logo, upload-intent.service.ts):
 *
 * 1. Intent (POST /api/v2/comments/attachments): the service picks the key, signs a POST form for
 *    exactly that key with the declared Content-Type, a size range 1..10 MiB and an expiry
 *    (FSM_UPLOAD_FORM_SECONDS), and keeps an upload record (a week while unattached) with its
 *    comment_attachment.created event in one transaction: a create the API can read back leaves
 *    an audit entry (never the form, which lets its holder write to the bucket until it expires).
 * 2. The client POSTs the file straight to the private bucket, under `pending/`.
 * 3. Attach (POST /api/v2/comments with attachment_ids): each file must be an upload of the
 *    caller's, not attached yet, arrived before its form expired, and pass the checks on its own
 *    bytes (size, stored Content-Type, the type's magic bytes; text must be UTF-8 without NUL),
 *    since no emulator enforces a POST policy and a client can lie. What was checked is copied to
 *    the attachment's key (the still-valid form could replace the pending object), and the upload
 *    is claimed in the comment's own transaction, so a file is attached to one comment only.
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
import type { TableWrite } from '../../data/table.ts';
import { domainEvent } from '../../events/domain-event.ts';
import { logger } from '../../observability/logger.ts';
import type { FieldError } from '../../schema/field-error.ts';
import { hasSignatureOf, isPlainText } from '../../uploads/file-signature.ts';
import {
  type AttachmentType,
  type AttachmentUpload,
  type AttachmentUploadStatus,
  attachmentMaxBytes,
  attachmentMaxSizeText,
  type CreateAttachmentUpload,
} from './comment.schema.ts';
import type { StoredCommentAttachment } from './comment.store.ts';
import { type AttachmentUploadRecord, commentAttachmentStore } from './comment-attachment.store.ts';
import { CommentError } from './comment-error.ts';

/** S3 stamps an object with the second its upload began; clocks differ a little. */
const arrivalToleranceMs = 2_000;

/** Keys under the prefixes the upload functions may use (lib/upload-checks.ts). */
export const attachmentKeys = {
  pending: (workspaceId: string, fileId: string) =>
    `pending/tenants/${workspaceId}/comment-attachments/${fileId}`,
  asset: (workspaceId: string, fileId: string) => `tenants/${workspaceId}/comment-attachments/${fileId}`,
};

export async function createAttachmentUpload(
  ctx: Actor,
  input: CreateAttachmentUpload,
): Promise<AttachmentUpload> {
  const fileId = uuidv7();
  const seconds = config().uploadFormSeconds;
  const pendingKey = attachmentKeys.pending(ctx.workspaceId, fileId);
  const form = await presignUploadForm({
    key: pendingKey,
    contentType: input.mime_type,
    maxBytes: attachmentMaxBytes,
    expiresInSeconds: seconds,
  });
  const expiresAt = form.expiresAt;
  const upload: AttachmentUploadRecord = {
    id: fileId,
    created_by: ctx.principal.id,
    file_name: input.original_file_name,
    mime_type: input.mime_type,
    pending_key: pendingKey,
    asset_key: attachmentKeys.asset(ctx.workspaceId, fileId),
    expires_at_utc: expiresAt,
    created_at: new Date().toISOString(),
    status: 'PENDING',
    lock_version: 0,
  };
  const event = domainEvent(
    ctx,
    'comment_attachment.created',
    { type: 'comment_attachment', id: fileId },
    {
      id: fileId,
      file_id: fileId,
      original_file_name: upload.file_name,
      mime_type: upload.mime_type,
      status: 'PENDING',
      created_by: upload.created_by,
      created_at: upload.created_at,
      expires_at_utc: expiresAt,
    },
  );
  await commentAttachmentStore.of(ctx).create(upload, event);
  return { file_id: fileId, upload_fields: { url: form.url, ...form.fields }, expires_at_utc: expiresAt };
}

/**
 * An upload of the caller's and what became of it (the Location of the intent). Uploads are
 * private to their uploader until attached: anyone else's is 404, as a missing one.
 */
export async function attachmentUploadStatus(ctx: Actor, fileId: string): Promise<AttachmentUploadStatus> {
  const upload = await commentAttachmentStore.of(ctx).get(fileId);
  if (!upload || upload.created_by !== ctx.principal.id)
    throw new CommentError('not-found', { detail: 'No upload of yours has this file_id.' });
  const common = {
    file_id: upload.id,
    original_file_name: upload.file_name,
    mime_type: upload.mime_type,
    expires_at_utc: upload.expires_at_utc,
    created_at: upload.created_at,
  };
  if (upload.status === 'ATTACHED') {
    return {
      ...common,
      status: 'ATTACHED',
      ...(upload.size_bytes !== undefined ? { size_bytes: upload.size_bytes } : {}),
      ...(upload.comment_id ? { comment_id: upload.comment_id } : {}),
    };
  }
  const arrived = await describeObject(upload.pending_key);
  if (arrived) return { ...common, status: 'UPLOADED', size_bytes: arrived.size };
  return { ...common, status: Date.parse(upload.expires_at_utc) < Date.now() ? 'EXPIRED' : 'PENDING' };
}

/** Whether the bytes are what the type says (file-signature.ts: magic bytes; UTF-8 text without NUL). */
export function looksLike(type: AttachmentType, bytes: Uint8Array): boolean {
  return type === 'text/plain' || type === 'text/csv' ? isPlainText(bytes) : hasSignatureOf(type, bytes);
}

export interface ClaimedAttachments {
  attachments: StoredCommentAttachment[];
  /** The claims, for the comment's transaction. */
  writes: TableWrite[];
  errors: FieldError[];
  /** Pending objects to remove once the comment committed. */
  cleanup: () => Promise<void>;
}

/** Check and copy each upload named, and prepare their claims by `commentId`. */
export async function claimAttachments(
  ctx: Actor,
  fileIds: readonly string[],
  commentId: string,
): Promise<ClaimedAttachments> {
  const attachments: StoredCommentAttachment[] = [];
  const writes: TableWrite[] = [];
  const errors: FieldError[] = [];
  const pending: string[] = [];
  const seen = new Set<string>();
  const uploads = await Promise.all(fileIds.map((id) => commentAttachmentStore.of(ctx).get(id)));
  await Promise.all(
    fileIds.map(async (rawId, index) => {
      const id = rawId.toLowerCase();
      const pointer = `#/attachment_ids/${index}`;
      const refuse = (detail: string) => errors.push({ type: 'field-invalid', pointer, detail });
      if (seen.has(id)) return refuse('is listed twice');
      seen.add(id);
      const upload = uploads[index];
      if (!upload || upload.created_by !== ctx.principal.id)
        return refuse('no upload of yours has this file_id');
      if (upload.status !== 'PENDING') return refuse('this file is attached to another comment already');
      const checked = await checkUpload(upload);
      if (!checked.ok) return refuse(checked.detail);
      attachments[index] = {
        file_id: upload.id,
        file_name: upload.file_name,
        mime_type: upload.mime_type,
        size_bytes: checked.size,
        key: upload.asset_key,
      };
      writes.push(commentAttachmentStore.of(ctx).attachWrite(upload, commentId, checked.size));
      pending.push(upload.pending_key);
    }),
  );
  return {
    attachments: attachments.filter(Boolean),
    writes,
    errors: errors.sort((a, b) => a.pointer.localeCompare(b.pointer)),
    cleanup: async () => {
      for (const key of pending) {
        try {
          await deleteObject(key);
        } catch (error) {
          // The bucket's lifecycle rule empties pending/ anyway.
          logger.warn('comments: could not delete a pending upload', { error: String(error) });
        }
      }
    },
  };
}

type CheckOutcome = { ok: true; size: number } | { ok: false; detail: string };

/**
 * Judge an upload's file and copy what passed to its attachment key. A file checked and copied
 * by an earlier attempt whose comment did not commit is found at that key.
 */
async function checkUpload(upload: AttachmentUploadRecord): Promise<CheckOutcome> {
  const type = upload.mime_type as AttachmentType;
  const stored = await describeObject(upload.pending_key);
  if (!stored) {
    const copied = await describeObject(upload.asset_key);
    if (copied) return { ok: true, size: copied.size };
    return { ok: false, detail: 'no file has arrived for this upload yet: POST the upload form first' };
  }
  if (
    stored.lastModified !== undefined &&
    stored.lastModified.getTime() > Date.parse(upload.expires_at_utc) + arrivalToleranceMs
  ) {
    return {
      ok: false,
      detail: `the file arrived after its upload form expired at ${upload.expires_at_utc}`,
    };
  }
  if (stored.size <= 0) return { ok: false, detail: 'the file is empty' };
  if (stored.size > attachmentMaxBytes) {
    return { ok: false, detail: `the file has ${stored.size} bytes; at most ${attachmentMaxSizeText}` };
  }
  const storedType = (stored.contentType ?? '').split(';')[0]?.trim().toLowerCase();
  if (storedType !== type) {
    return {
      ok: false,
      detail: `the file was stored as ${storedType || 'no type'}, but the upload declared ${type}`,
    };
  }
  const bytes = await readObject(upload.pending_key, attachmentMaxBytes + 1);
  if (!bytes)
    return { ok: false, detail: 'no file has arrived for this upload yet: POST the upload form first' };
  if (bytes.length === 0 || bytes.length > attachmentMaxBytes) {
    return { ok: false, detail: `the file must have 1 byte to ${attachmentMaxSizeText}` };
  }
  if (!looksLike(type, bytes)) return { ok: false, detail: `the file’s bytes are not ${type}` };
  await writeObject(upload.asset_key, bytes, type);
  return { ok: true, size: bytes.length };
}
