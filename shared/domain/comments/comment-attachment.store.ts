/**
 * Storage of comment attachment uploads (keys.ts `commentAttachment`): the upload record created
 * with its form, then claimed by the comment it is attached to, in that comment's transaction.
 * Unattached uploads (and their status) are kept a week; attached ones as long as their comment.
 */
import { keys } from '../../data/keys.ts';
import { outboxWrite } from '../../data/outbox.ts';
import type { StoreScope } from '../../data/resource-store.ts';
import { getRecord, type TableWrite, transactWrite } from '../../data/table.ts';
import type { DomainEvent } from '../../events/domain-event.ts';

/** A comment attachment's upload. */
export interface AttachmentUploadRecord {
  id: string;
  created_by: string;
  file_name: string;
  mime_type: string;
  /** Where the form puts the file. */
  pending_key: string;
  /** Where the checked file is kept once attached. */
  asset_key: string;
  expires_at_utc: string;
  created_at: string;
  status: 'PENDING' | 'ATTACHED';
  comment_id?: string;
  size_bytes?: number;
  lock_version: number;
}

const entity = 'comment_attachment';
const uploadRetentionSeconds = 7 * 86_400;

/** One workspace's attachment uploads: every call is scoped to it by construction. */
export interface WorkspaceCommentAttachmentStore {
  /** Strongly consistent: an upload created or claimed a moment ago is seen as it is. */
  get(fileId: string): Promise<AttachmentUploadRecord | undefined>;
  /** The upload record and its comment_attachment.created event, in one transaction. */
  create(upload: AttachmentUploadRecord, event: DomainEvent): Promise<void>;
  /** The claim of an upload by a comment, for the comment's transaction (fails if claimed meanwhile). */
  attachWrite(upload: AttachmentUploadRecord, commentId: string, size: number): TableWrite;
}

export const commentAttachmentStore = {
  of(scope: StoreScope): WorkspaceCommentAttachmentStore {
    const workspaceId = typeof scope === 'string' ? scope : scope.workspaceId;
    return {
      async get(fileId) {
        return (await getRecord(keys.commentAttachment(workspaceId, fileId.toLowerCase()), {
          consistent: true,
        })) as AttachmentUploadRecord | undefined;
      },

      async create(upload, event) {
        await transactWrite([
          {
            kind: 'create',
            key: keys.commentAttachment(workspaceId, upload.id),
            entity,
            record: { ...upload },
            expiresAt: Math.floor(Date.parse(upload.created_at) / 1000) + uploadRetentionSeconds,
          },
          outboxWrite(event),
        ]);
      },

      attachWrite(upload, commentId, size) {
        return {
          kind: 'replace',
          key: keys.commentAttachment(workspaceId, upload.id),
          entity,
          record: {
            ...upload,
            status: 'ATTACHED',
            comment_id: commentId,
            size_bytes: size,
            lock_version: upload.lock_version + 1,
          },
          expectedVersion: upload.lock_version,
        };
      },
    };
  },
};
