/**
 * What a tenant logo or favicon may be, and the check of an uploaded file against it. The upload
 * form (a presigned POST) promises a size range and a Content-Type, but no local emulator
 * enforces a POST policy and a browser can lie about a file, so the service decides on the stored
 * bytes alone, before anything is applied:
 *
 * 1. size: 1..the kind's limit (logo 2 MiB, favicon 256 KiB);
 * 2. the stored Content-Type is the one the intent declared;
 * 3. the bytes are what the type says (shared/uploads/file-signature.ts): PNG, JPEG, WebP and ICO
 *    by their magic bytes, an ICO with at least one image;
 * 4. an SVG is UTF-8 XML text whose root is `<svg>`, with nothing that runs or loads: no
 *    `<script>`, no event handler attribute (`on…`), no `javascript:`/`vbscript:` URL, no
 *    `<foreignObject>` (HTML inside), no reference outside the file (`href`/`xlink:href`/`src` other
 *    than `#fragment` or an embedded raster `data:image/…`, CSS `url()` other than `url(#…)`,
 *    `@import`, `<?xml-stylesheet?>`), and no entity declarations (entity expansion attacks).
 *
 * Pure functions only: the caller reads the object (upload-intent.service.ts).
 */
import {
  hasSignatureOf,
  isSignedFileType,
  type SignedFileType,
  signatureAmong,
} from '../../uploads/file-signature.ts';

export const uploadKinds = ['logo', 'favicon'] as const;
export type UploadKind = (typeof uploadKinds)[number];

const mib = 1024 * 1024;

/** The accepted types and the size limit of each kind: published in the route descriptions. */
export const uploadRules = {
  logo: {
    maxBytes: 2 * mib,
    maxSizeText: '2 MiB',
    mimeTypes: ['image/png', 'image/jpeg', 'image/webp', 'image/svg+xml'],
  },
  favicon: {
    maxBytes: 256 * 1024,
    maxSizeText: '256 KiB',
    // Browsers name .ico files either way.
    mimeTypes: ['image/x-icon', 'image/vnd.microsoft.icon', 'image/png'],
  },
} as const satisfies Record<
  UploadKind,
  { maxBytes: number; maxSizeText: string; mimeTypes: readonly string[] }
>;

export type UploadMimeType = (typeof uploadRules)[UploadKind]['mimeTypes'][number];

/** Why an uploaded file was refused: a closed list, published with the status record. */
export const rejectionReasons = {
  empty: 'the file is empty',
  'too-large': 'the file is larger than the limit',
  'content-type-mismatch': 'the file was stored with another Content-Type than the upload declared',
  'content-mismatch': 'the bytes are not an image of the declared type',
  'unsafe-svg': 'the SVG contains scripts, event handlers, HTML or references outside the file',
  'form-expired': 'the file arrived after the upload form had expired',
} as const;

export type RejectionReason = keyof typeof rejectionReasons;

export type CheckResult = { ok: true } | { ok: false; reason: RejectionReason; detail: string };

const refuse = (reason: RejectionReason, detail: string): CheckResult => ({ ok: false, reason, detail });

/** The media type without parameters, lower-cased: `Image/PNG; x=y` → `image/png`. */
export function essenceOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** Size and Content-Type of the stored object, before its bytes are read. */
export function checkStoredObject(params: {
  kind: UploadKind;
  declaredType: string;
  size: number;
  contentType: string | undefined;
}): CheckResult {
  const { maxBytes, maxSizeText } = uploadRules[params.kind];
  if (params.size <= 0) return refuse('empty', 'the file is empty');
  if (params.size > maxBytes) {
    return refuse(
      'too-large',
      `the file has ${params.size} bytes; a ${params.kind} may have at most ${maxSizeText}`,
    );
  }
  const stored = essenceOf(params.contentType);
  if (stored !== params.declaredType) {
    return refuse(
      'content-type-mismatch',
      `the file was stored as ${stored || 'no type'}, but the upload declared ${params.declaredType}`,
    );
  }
  return { ok: true };
}

/** The raster types a logo or favicon may be, each told by its first bytes (file-signature.ts). */
const rasterTypes: readonly SignedFileType[] = [
  ...new Set(
    Object.values(uploadRules).flatMap((rule) =>
      (rule.mimeTypes as readonly string[]).filter(isSignedFileType),
    ),
  ),
];

function looksLike(type: string, bytes: Uint8Array): boolean {
  return isSignedFileType(type) && rasterTypes.includes(type) && hasSignatureOf(type, bytes);
}

/** The whole file's bytes against the declared type (magic bytes; SVG safety). */
export function checkContent(declaredType: string, bytes: Uint8Array): CheckResult {
  if (bytes.length === 0) return refuse('empty', 'the file is empty');
  if (declaredType === 'image/svg+xml') return checkSvg(bytes);
  if (looksLike(declaredType, bytes)) return { ok: true };
  return refuse('content-mismatch', `the file does not start like ${declaredType} (${describeStart(bytes)})`);
}

/** A hint at what the file is instead, for the status record's detail. */
function describeStart(bytes: Uint8Array): string {
  const head = Buffer.from(bytes.subarray(0, 64)).toString('latin1').trimStart().toLowerCase();
  if (head.startsWith('<!doctype html') || head.startsWith('<html')) return 'it is HTML';
  if (head.startsWith('<')) return 'it is markup';
  const other = signatureAmong(['image/png', 'image/jpeg', 'image/webp', 'image/x-icon'], bytes);
  if (other) return `it is ${other}`;
  return `first bytes ${Buffer.from(bytes.subarray(0, 8)).toString('hex')}`;
}

const namedEntities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Character and the XML entities decoded, as a renderer would read an attribute value. */
function decodeEntities(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);?/gi, (whole, entity: string) => {
    if (entity[0] === '#') {
      const code =
        entity[1] === 'x' || entity[1] === 'X'
          ? Number.parseInt(entity.slice(2), 16)
          : Number(entity.slice(1));
      return Number.isFinite(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
    return namedEntities[entity.toLowerCase()] ?? whole;
  });
}

/** What a URL scheme check must see: decoded, without the blanks and controls browsers skip. */
function normalisedUrl(value: string): string {
  return (
    decodeEntities(value)
      // biome-ignore lint/suspicious/noControlCharactersInRegex: browsers ignore these inside a scheme.
      .replace(/[\u0000-\u0020\u007f-\u00a0]+/g, '')
      .toLowerCase()
  );
}

/** Embedded rasters are self-contained; everything else a data: URL could carry is not. */
const embeddedRaster = /^data:image\/(?:png|jpeg|gif|webp);base64,/;

function isLocalReference(value: string): boolean {
  const url = normalisedUrl(value);
  return url === '' || url.startsWith('#') || embeddedRaster.test(url);
}

/** `url(...)` in CSS (a style element or attribute, a presentation attribute) that leaves the file. */
function hasExternalCssUrl(text: string): boolean {
  const decoded = decodeEntities(text);
  for (const match of decoded.matchAll(/url\s*\(\s*(['"]?)([^'")]*)\1\s*\)/gi)) {
    if (!isLocalReference(match[2] ?? '')) return true;
  }
  return /@import/i.test(decoded) || /url\s*\(\s*['"]?\s*(?:javascript|vbscript):/i.test(decoded);
}

const forbiddenElements = new Set([
  'script',
  'foreignobject',
  'iframe',
  'embed',
  'object',
  'handler',
  'listener',
]);
const referenceAttributes = new Set(['href', 'src']);

const tagPattern = /<([A-Za-z_][\w:.-]*)((?:\s+[^\s=/>]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>]+))?)*)\s*\/?>/g;
const attributePattern = /([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g;

export function checkSvg(bytes: Uint8Array): CheckResult {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return refuse('content-mismatch', 'the SVG is not UTF-8 text');
  }
  if (text.includes('\u0000'))
    return refuse('content-mismatch', 'the SVG is not text (it holds NUL characters)');
  const unsafe = (detail: string) => refuse('unsafe-svg', detail);

  // The prolog: an XML declaration, comments, a DOCTYPE without internal subset; then <svg.
  if (/<!ENTITY/i.test(text) || /<!DOCTYPE[^>]*\[/i.test(text)) {
    return unsafe('the SVG declares entities (a DOCTYPE internal subset)');
  }
  if (/<\?xml-stylesheet/i.test(text)) return unsafe('the SVG loads a stylesheet (<?xml-stylesheet?>)');
  const body = text.replace(/^\uFEFF/, '').replace(/<!--[\s\S]*?-->/g, ' ');
  const prolog = /^\s*(?:<\?xml[^?]*\?>)?\s*(?:<!DOCTYPE\s+svg[^>]*>)?\s*/i.exec(body);
  const rest = body.slice(prolog?.[0].length ?? 0);
  if (!/^<svg[\s>/]/.test(rest))
    return refuse('content-mismatch', 'the file is not an SVG document (its root is not <svg>)');
  if (!/<\/svg\s*>\s*$/.test(rest) && !/^<svg[^>]*\/>\s*$/.test(rest)) {
    return refuse('content-mismatch', 'the SVG document does not end with </svg>');
  }

  // Markup that runs, even where the tokenizer below would not see an element (CDATA, broken tags).
  if (/<\s*(?:[\w.-]+:)?script\b/i.test(body)) return unsafe('the SVG contains a <script> element');
  if (/<\s*(?:[\w.-]+:)?foreignObject\b/i.test(body))
    return unsafe('the SVG contains <foreignObject> (HTML inside an SVG)');
  if (/(?:java|vb)script\s*:/i.test(normalisedUrl(body))) return unsafe('the SVG contains a javascript: URL');

  for (const tag of body.matchAll(tagPattern)) {
    const element = (tag[1] ?? '').toLowerCase();
    const localName = element.includes(':') ? element.slice(element.indexOf(':') + 1) : element;
    if (forbiddenElements.has(localName)) return unsafe(`the SVG contains a <${tag[1]}> element`);
    for (const attribute of (tag[2] ?? '').matchAll(attributePattern)) {
      const name = (attribute[1] ?? '').toLowerCase();
      const value = attribute[2] ?? attribute[3] ?? attribute[4] ?? '';
      const localAttribute = name.includes(':') ? name.slice(name.indexOf(':') + 1) : name;
      if (localAttribute.startsWith('on'))
        return unsafe(`the SVG has an event handler attribute (${attribute[1]})`);
      if (referenceAttributes.has(localAttribute) && !isLocalReference(value)) {
        return unsafe(`the SVG refers outside the file (${attribute[1]}="${value.slice(0, 80)}")`);
      }
      if (hasExternalCssUrl(value)) return unsafe(`the SVG loads from outside the file in ${attribute[1]}`);
    }
  }
  // Style elements and any other text content.
  if (hasExternalCssUrl(body.replace(tagPattern, ' ')))
    return unsafe('the SVG’s CSS loads from outside the file');
  return { ok: true };
}
