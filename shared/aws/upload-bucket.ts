/**
 * The private upload bucket (FSM_UPLOAD_BUCKET): the only module that talks to S3 for uploads.
 * It speaks in keys, bytes and plain descriptions, and translates SDK failures into `DataError`s
 * (`unavailable` → 503), so the domain never imports the AWS SDK.
 *
 * Locally the bucket lives in the SQS/S3 emulator (FSM_S3_ENDPOINT, path-style addressing, any
 * credentials); on AWS it is the DataStack's `Uploads` bucket, reached with the function's role.
 * Emulators enforce no POST policy (size range, Content-Type, expiry, signature): whatever the
 * form promised is checked again on the stored object by the caller (upload-check.ts).
 */
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { config } from '../config.ts';
import { DataError } from '../data/data-error.ts';
import { isUnavailable } from '../data/table.ts';
import { s3Client } from './clients.ts';

let client: S3Client | undefined;

export function s3(): S3Client {
  client ??= s3Client();
  return client;
}

const bucket = () => config().uploadBucket;

function translate(error: unknown, what: string): never {
  if (isUnavailable(error)) {
    throw new DataError('unavailable', `s3 ${what}: ${(error as { name?: string }).name}`, { cause: error });
  }
  throw error;
}

function isMissing(error: unknown): boolean {
  const failure = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return (
    failure?.name === 'NotFound' ||
    failure?.name === 'NoSuchKey' ||
    failure?.$metadata?.httpStatusCode === 404
  );
}

export interface UploadForm {
  /** Where the browser POSTs the form. */
  url: string;
  /** Every form field, in the order to send them, before the file (which goes last, as `file`). */
  fields: Record<string, string>;
  /** When the signed policy expires (UTC, whole seconds), as the policy itself says. */
  expiresAt: string;
}

/**
 * A presigned POST for exactly `key`: the Content-Type pinned to `contentType`, the size to
 * 1..`maxBytes`, valid `expiresInSeconds`. The policy also allows a field named `url`, so a client
 * that posts every field of the intent's `upload_fields` (where `url` is one) is not refused by S3
 * for an extra field.
 */
export async function presignUploadForm(params: {
  key: string;
  contentType: string;
  maxBytes: number;
  expiresInSeconds: number;
}): Promise<UploadForm> {
  try {
    const { url, fields } = await createPresignedPost(s3() as never, {
      Bucket: bucket(),
      Key: params.key,
      Conditions: [
        ['content-length-range', 1, params.maxBytes],
        ['starts-with', '$url', ''],
      ],
      Fields: { 'Content-Type': params.contentType },
      Expires: params.expiresInSeconds,
    });
    // The expiry the form carries, read back from its policy: the signer takes its own clock
    // (with the client's clock-skew correction), so a time computed here could differ by a second.
    const policy = JSON.parse(Buffer.from(fields.Policy ?? '', 'base64').toString('utf8')) as {
      expiration: string;
    };
    return { url, fields, expiresAt: new Date(policy.expiration).toISOString().replace('.000Z', 'Z') };
  } catch (error) {
    return translate(error, 'presign');
  }
}

export interface StoredObject {
  size: number;
  contentType: string | undefined;
  lastModified: Date | undefined;
}

/** What S3 knows of an object (HeadObject); undefined when there is none. */
export async function describeObject(key: string): Promise<StoredObject | undefined> {
  try {
    const head = await s3().send(new HeadObjectCommand({ Bucket: bucket(), Key: key }));
    return { size: head.ContentLength ?? 0, contentType: head.ContentType, lastModified: head.LastModified };
  } catch (error) {
    if (isMissing(error)) return undefined;
    return translate(error, 'head');
  }
}

/**
 * The object's bytes, at most `maxBytes` of them (a Range request: an object larger than the
 * HeadObject said is never read whole); undefined when it is gone.
 */
export async function readObject(key: string, maxBytes: number): Promise<Buffer | undefined> {
  try {
    const answer = await s3().send(
      new GetObjectCommand({ Bucket: bucket(), Key: key, Range: `bytes=0-${Math.max(0, maxBytes - 1)}` }),
    );
    if (!answer.Body) return Buffer.alloc(0);
    return Buffer.from(await answer.Body.transformToByteArray());
  } catch (error) {
    if (isMissing(error)) return undefined;
    return translate(error, 'get');
  }
}

export async function writeObject(key: string, body: Buffer, contentType: string): Promise<void> {
  try {
    await s3().send(
      new PutObjectCommand({
        Bucket: bucket(),
        Key: key,
        Body: body,
        ContentType: contentType,
        // Browsers that open the URL directly get the image, never a page that could run.
        ContentDisposition: 'inline',
        CacheControl: 'private, max-age=3600',
      }),
    );
  } catch (error) {
    translate(error, 'put');
  }
}

/** Delete an object; a missing one is no error. */
export async function deleteObject(key: string): Promise<void> {
  try {
    await s3().send(new DeleteObjectCommand({ Bucket: bucket(), Key: key }));
  } catch (error) {
    if (isMissing(error)) return;
    translate(error, 'delete');
  }
}

/** A short-lived URL that reads the object (the bucket itself is private). */
export async function objectReadUrl(key: string, expiresInSeconds: number): Promise<string> {
  return getSignedUrl(s3(), new GetObjectCommand({ Bucket: bucket(), Key: key }), {
    expiresIn: expiresInSeconds,
  });
}
