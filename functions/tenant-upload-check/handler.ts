/**
 * Lambda on the upload bucket's "Object Created" events (EventBridge) under
 * `pending/tenants/`: checks a logo or favicon the moment it lands and applies it, so a client
 * usually finds it UPLOADED at its first status read. The status read runs the same check when
 * this has not (yet), so a lost or late event costs only latency. A failure throws: EventBridge
 * retries the invocation.
 */
import { checkUploadedKey } from '../../shared/domain/tenant/upload-intent.service.ts';
import { observedWorker } from '../../shared/observability/lambda-observability.ts';
import { logger } from '../../shared/observability/logger.ts';

/** The part of an EventBridge "Object Created" event of S3 this reads. */
export interface ObjectCreatedEvent {
  detail?: { bucket?: { name?: string }; object?: { key?: string } };
}

export const handler = observedWorker(
  'tenant-upload-check',
  async (event: ObjectCreatedEvent): Promise<void> => {
    // Decoded as S3 notifications encode keys; the service's own keys hold nothing to decode.
    const raw = event.detail?.object?.key;
    if (!raw) return;
    const key = decodeURIComponent(raw.replace(/\+/g, ' '));
    const status = await checkUploadedKey(key);
    if (status) {
      logger.info('upload checked', { fileId: status.file_id, kind: status.kind, status: status.status });
    }
  },
);
