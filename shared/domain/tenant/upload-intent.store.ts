/**
 * Upload intents: one item per logo or favicon upload (keys.ts `uploadIntent`), created with
 * its form and replaced, conditional on the version read, when its file was checked. The item
 * expires a week after its creation (TTL; reads filter expired items themselves), so status
 * records stay readable long after any form has expired, and then go.
 */
import { keys } from '../../data/keys.ts';
import { outboxWrite } from '../../data/outbox.ts';
import type { StoreScope } from '../../data/resource-store.ts';
import { getRecord, transactWrite, writeItem } from '../../data/table.ts';
import type { DomainEvent } from '../../events/domain-event.ts';
import type { UploadStatus } from './upload.schema.ts';
import type { RejectionReason, UploadKind } from './upload-check.ts';

export interface UploadIntentRecord {
  /** The file_id. */
  id: string;
  workspace_id: string;
  kind: UploadKind;
  /** PENDING until the file was checked; EXPIRED is never stored, it is read off the clock. */
  status: Exclude<UploadStatus, 'EXPIRED'>;
  applied: boolean;
  reason?: RejectionReason;
  reason_detail?: string;
  original_file_name: string;
  mime_type: string;
  size_bytes?: number;
  /** Where the form puts the file (under the bucket's `pending/` prefix, which a lifecycle rule empties). */
  pending_key: string;
  /** Where the checked file is kept once applied. */
  asset_key: string;
  expires_at_utc: string;
  created_at: string;
  /** The principal that asked for the form: the actor of the tenant.updated event of applying it. */
  created_by: string;
  checked_at?: string;
  lock_version: number;
}

/** Days an intent (and so its status record) is kept. */
export const intentRetentionDays = 7;

const entity = 'upload_intent';

function expiryOf(record: UploadIntentRecord): number {
  return Math.floor(Date.parse(record.created_at) / 1000) + intentRetentionDays * 86_400;
}

/** One workspace's upload intents: every call is scoped to it by construction. */
export interface WorkspaceUploadIntentStore {
  /** Strongly consistent: a status read right after the check that wrote it sees its outcome. */
  get(fileId: string): Promise<UploadIntentRecord | undefined>;
  /** The intent and its tenant.<kind>_upload.created event, in one transaction. */
  create(record: UploadIntentRecord, event: DomainEvent): Promise<void>;
  /** Fails with DataError `version-conflict` when someone else changed it since `current` was read. */
  replace(next: UploadIntentRecord, current: UploadIntentRecord): Promise<void>;
}

export const uploadIntentStore = {
  of(scope: StoreScope): WorkspaceUploadIntentStore {
    const workspaceId = typeof scope === 'string' ? scope : scope.workspaceId;
    return {
      async get(fileId) {
        return (await getRecord(keys.uploadIntent(workspaceId, fileId), { consistent: true })) as
          | UploadIntentRecord
          | undefined;
      },
      async create(record, event) {
        await transactWrite([
          {
            kind: 'create',
            key: keys.uploadIntent(workspaceId, record.id),
            entity,
            record: { ...record },
            expiresAt: expiryOf(record),
          },
          outboxWrite(event),
        ]);
      },
      async replace(next, current) {
        await writeItem({
          kind: 'replace',
          key: keys.uploadIntent(workspaceId, next.id),
          entity,
          record: { ...next, lock_version: current.lock_version + 1 },
          expectedVersion: current.lock_version,
          expiresAt: expiryOf(next),
        });
      },
    };
  },
};
