/**
 * What an uploaded file's own bytes say it is: the magic bytes each accepted image or PDF type
 * starts with, and plain text (UTF-8 without NUL). Uploads are checked on their stored bytes,
 * never on the Content-Type a client declared (comment attachments, tenant logos and favicons):
 * no local emulator enforces a presigned POST policy and a browser can lie about a file.
 *
 * - PNG `89 50 4E 47 0D 0A 1A 0A`, JPEG `FF D8 FF`, GIF `GIF87a`/`GIF89a`, WebP `RIFF....WEBP`,
 *   PDF `%PDF-`;
 * - ICO (`image/x-icon`, `image/vnd.microsoft.icon`: browsers name .ico files either way):
 *   reserved 0, type 1 (icon), then the number of images (little-endian), at least one.
 *
 * Pure functions, no transport and no storage.
 */

/** The types recognised by their first bytes. */
export const signedFileTypes = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/x-icon',
  'image/vnd.microsoft.icon',
  'application/pdf',
] as const;

export type SignedFileType = (typeof signedFileTypes)[number];

export function isSignedFileType(type: string): type is SignedFileType {
  return (signedFileTypes as readonly string[]).includes(type);
}

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((byte, i) => bytes[at + i] === byte);

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** Whether the bytes start like a file of `type`. */
export function hasSignatureOf(type: SignedFileType, bytes: Uint8Array): boolean {
  switch (type) {
    case 'image/png':
      return startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    case 'image/jpeg':
      return startsWith(bytes, [0xff, 0xd8, 0xff]);
    case 'image/gif':
      return startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'));
    case 'image/webp':
      return startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8);
    case 'image/x-icon':
    case 'image/vnd.microsoft.icon':
      return (
        startsWith(bytes, [0x00, 0x00, 0x01, 0x00]) &&
        bytes.length >= 6 &&
        (bytes[4] ?? 0) + (bytes[5] ?? 0) > 0
      );
    case 'application/pdf':
      return startsWith(bytes, ascii('%PDF-'));
    default: {
      const exhaustive: never = type;
      return exhaustive;
    }
  }
}

/** The signed type the bytes start like, of those given (in their order), or undefined. */
export function signatureAmong(
  types: readonly SignedFileType[],
  bytes: Uint8Array,
): SignedFileType | undefined {
  return types.find((type) => hasSignatureOf(type, bytes));
}

/** Whether the bytes are text: valid UTF-8 without a NUL character. */
export function isPlainText(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}
