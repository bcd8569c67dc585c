/**
 * A presigned GET URL of one S3 object (Signature Version 4, query-string authentication, as in
 * the S3 API reference "Authenticating Requests: Using Query Parameters"). Written here because
 * the project has @aws-sdk/s3-presigned-post (browser uploads) but not @aws-sdk/s3-request-presigner;
 * a GET needs only this much: the canonical request of a bodyless GET with the `host` header
 * signed and an unsigned payload. s3-presign.test.ts checks it against the reference's example.
 */
import { createHash, createHmac } from 'node:crypto';

export interface PresignCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string | undefined;
}

/** S3's encoding of a query value or path segment: RFC 3986 unreserved characters stay. */
function encode(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();
const sha256Hex = (data: string) => createHash('sha256').update(data, 'utf8').digest('hex');

/** `20130524T000000Z` */
function amzDate(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/**
 * `objectUrl`: the object's URL without query (virtual-hosted or path style), its path already
 * made of S3-safe segments. `expiresInSeconds`: 1..604800 (S3's limit of 7 days).
 */
export function presignGetUrl(params: {
  objectUrl: string;
  region: string;
  credentials: PresignCredentials;
  expiresInSeconds: number;
  now?: Date;
  /** Response header overrides S3 applies to this GET (e.g. response-content-disposition). */
  responseHeaders?: Record<string, string>;
}): string {
  const url = new URL(params.objectUrl);
  const now = params.now ?? new Date();
  const datetime = amzDate(now);
  const date = datetime.slice(0, 8);
  const scope = `${date}/${params.region}/s3/aws4_request`;
  const query: Record<string, string> = {
    'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
    'X-Amz-Credential': `${params.credentials.accessKeyId}/${scope}`,
    'X-Amz-Date': datetime,
    'X-Amz-Expires': String(params.expiresInSeconds),
    'X-Amz-SignedHeaders': 'host',
    ...(params.credentials.sessionToken ? { 'X-Amz-Security-Token': params.credentials.sessionToken } : {}),
    ...params.responseHeaders,
  };
  const canonicalQuery = Object.keys(query)
    .sort()
    .map((name) => `${encode(name)}=${encode(query[name] ?? '')}`)
    .join('&');
  const canonicalRequest = [
    'GET',
    url.pathname,
    canonicalQuery,
    `host:${url.host}\n`,
    'host',
    'UNSIGNED-PAYLOAD',
  ].join('\n');
  const stringToSign = ['AWS4-HMAC-SHA256', datetime, scope, sha256Hex(canonicalRequest)].join('\n');
  const signingKey = hmac(
    hmac(hmac(hmac(`AWS4${params.credentials.secretAccessKey}`, date), params.region), 's3'),
    'aws4_request',
  );
  const signature = createHmac('sha256', signingKey).update(stringToSign, 'utf8').digest('hex');
  return `${url.origin}${url.pathname}?${canonicalQuery}&X-Amz-Signature=${signature}`;
}
