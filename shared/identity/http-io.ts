/**
 * Reading form posts and writing the identity provider's own answers (JSON for the back-channel
 * endpoints, text, HTML pages). oidc-provider writes its own responses; these are for the
 * handlers that sit beside it (logout, login page, set-password page).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBodyWithin } from '../server/request-body.ts';

const FORM_LIMIT_BYTES = 64 * 1024;

/**
 * Two Authorization headers, or one whose value holds a comma (how proxies and API Gateway join
 * repeated headers): an ambiguous credential. Neither Basic credentials (base64) nor bearer
 * tokens (b64token) contain a comma. Node's `req.headers` keeps only the first Authorization
 * header, so this looks at every one.
 */
export function hasAmbiguousAuthorization(req: IncomingMessage): boolean {
  const values = req.headersDistinct.authorization ?? [];
  return values.length > 1 || values.some((value) => value.includes(','));
}

/** Whether the request body is declared `application/x-www-form-urlencoded`. */
export function isFormPost(req: IncomingMessage): boolean {
  const contentType = (req.headers['content-type'] ?? '').split(';', 1)[0]?.trim().toLowerCase();
  return contentType === 'application/x-www-form-urlencoded';
}

/** The form body, or undefined when it is larger than 64 KiB or the client goes away. */
export async function readForm(req: IncomingMessage): Promise<URLSearchParams | undefined> {
  const body = await readBodyWithin(req, FORM_LIMIT_BYTES).catch(() => undefined);
  return body ? new URLSearchParams(body.toString('utf8')) : undefined;
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(text);
}

/**
 * Headers of every HTML page of the provider. The pages carry one-time secrets in their URL
 * (set-password links) or forms (CSRF tokens), so they are never cached, never framed, never
 * leak their URL as a Referer, and may load nothing from anywhere (styles are inline).
 * `formTargets` are further origins a form may be sent to or redirected to after submission:
 * browsers check `form-action` along the redirect chain, and the login form ends at the
 * client's redirect URI.
 */
export function pageHeaders(formTargets: string[] = []): Record<string, string> {
  const formAction = ["'self'", ...formTargets].join(' ');
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
    Pragma: 'no-cache',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': `default-src 'none'; style-src 'unsafe-inline'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
  };
}

export function sendHtml(
  res: ServerResponse,
  status: number,
  page: string,
  options: { formTargets?: string[]; headers?: Record<string, string> } = {},
): void {
  res.writeHead(status, {
    ...pageHeaders(options.formTargets),
    'Content-Length': Buffer.byteLength(page),
    ...options.headers,
  });
  res.end(page);
}
