/**
 * Answers of routes whose body is the same for everyone and rarely changes (the OpenAPI document,
 * the reference page and its scripts; `success.conditional` in the route table), as a browser and
 * a client generator expect them from any CDN:
 *
 * - an ETag (weak: the compressed and the plain answers are the same document), and 304 without a
 *   body when If-None-Match names it (or is `*`);
 * - the body compressed with Brotli or gzip when Accept-Encoding allows (Brotli preferred at equal
 *   weight, `q=0` refusing a coding), with `Vary: Accept-Encoding`; bodies under 1 KiB as they are.
 *
 * Each body is hashed and compressed once per process (kept for the few bodies these routes
 * have): the OpenAPI document is about half a megabyte, and Brotli at quality 11 would cost
 * seconds per call; quality 6 compresses it about as well as gzip -9 plus a quarter, in tens of ms.
 */
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { type ApiEvent, type ApiResult, header } from './api-gateway.ts';

type Coding = 'br' | 'gzip';

interface Representation {
  etag: string;
  encoded: Partial<Record<Coding, string>>;
}

/** Bodies served conditionally are few (the document, the page, its three scripts). */
const maxKept = 16;
const kept = new Map<string, Representation>();

/** Smaller bodies gain nothing worth the coding. */
const minimumBytes = 1024;

function representationOf(body: string): Representation {
  const known = kept.get(body);
  if (known) return known;
  const digest = createHash('sha256').update(body).digest('base64url').slice(0, 27);
  const representation = { etag: `W/"${digest}"`, encoded: {} };
  if (kept.size >= maxKept) kept.delete(kept.keys().next().value as string);
  kept.set(body, representation);
  return representation;
}

function encode(body: string, coding: Coding): string {
  const bytes = Buffer.from(body, 'utf8');
  const compressed =
    coding === 'br'
      ? brotliCompressSync(bytes, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: 6,
            [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
          },
        })
      : gzipSync(bytes, { level: 6 });
  return compressed.toString('base64');
}

/** The coding Accept-Encoding prefers among Brotli and gzip (RFC 9110 §12.5.3), if any. */
export function preferredCoding(acceptEncoding: string | undefined): Coding | undefined {
  if (!acceptEncoding) return undefined;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...parameters] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = parameters.map((parameter) => /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(parameter)?.[1]).find(Boolean);
    const weight = q === undefined ? 1 : Number(q);
    weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (coding: Coding) => weights.get(coding) ?? weights.get('*') ?? 0;
  const [br, gzip] = [weightOf('br'), weightOf('gzip')];
  if (br > 0 && br >= gzip) return 'br';
  if (gzip > 0) return 'gzip';
  return undefined;
}

/** Whether If-None-Match names the ETag (weak comparison, RFC 9110 §13.1.2). */
export function matchesIfNoneMatch(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => opaque(tag) === opaque(etag));
}

/** The answer with its ETag, as a 304 when the client holds it, compressed when it may be. */
export function conditionalResult(event: ApiEvent, answer: ApiResult): ApiResult {
  if (answer.statusCode !== 200 || typeof answer.body !== 'string' || answer.isBase64Encoded) return answer;
  const body = answer.body;
  const representation = representationOf(body);
  const headers: Record<string, string> = {
    ...answer.headers,
    etag: representation.etag,
    vary: 'Accept-Encoding',
  };
  if (matchesIfNoneMatch(header(event, 'if-none-match'), representation.etag)) {
    const { 'content-type': _type, ...rest } = headers;
    return { statusCode: 304, headers: rest };
  }
  const coding =
    Buffer.byteLength(body) < minimumBytes ? undefined : preferredCoding(header(event, 'accept-encoding'));
  if (!coding) return { ...answer, headers };
  representation.encoded[coding] ??= encode(body, coding);
  return {
    statusCode: 200,
    headers: { ...headers, 'content-encoding': coding },
    body: representation.encoded[coding],
    isBase64Encoded: true,
  };
}
