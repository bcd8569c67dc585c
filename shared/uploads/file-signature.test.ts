import { describe, expect, it } from 'vitest';
import { hasSignatureOf, isPlainText, isSignedFileType, signatureAmong } from './file-signature.ts';

const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const jpeg = Buffer.from('ffd8ffe000104a464946', 'hex');
const gif87 = Buffer.from('GIF87a\x01\x00\x01\x00', 'latin1');
const gif89 = Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1');
const webp = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x24, 0, 0, 0]), Buffer.from('WEBPVP8 ')]);
const ico = Buffer.from('000001000100101000000100', 'hex');
const pdf = Buffer.from('%PDF-1.7\n%âãÏÓ\n', 'latin1');
const html = Buffer.from('<!DOCTYPE html><script>alert(1)</script>');

describe('Function: hasSignatureOf', () => {
  describe('successful', () => {
    it.each([
      { type: 'image/png' as const, bytes: png },
      { type: 'image/jpeg' as const, bytes: jpeg },
      { type: 'image/gif' as const, bytes: gif87 },
      { type: 'image/gif' as const, bytes: gif89 },
      { type: 'image/webp' as const, bytes: webp },
      { type: 'image/x-icon' as const, bytes: ico },
      { type: 'image/vnd.microsoft.icon' as const, bytes: ico },
      { type: 'application/pdf' as const, bytes: pdf },
    ])('recognises $type by its first bytes', ({ type, bytes }) => {
      expect(hasSignatureOf(type, bytes)).toBe(true);
    });
  });

  describe('failing', () => {
    it.each([
      { title: 'HTML named as PNG', type: 'image/png' as const, bytes: html },
      { title: 'a JPEG named as PNG', type: 'image/png' as const, bytes: jpeg },
      { title: 'a PNG cut before its signature ends', type: 'image/png' as const, bytes: png.subarray(0, 7) },
      { title: 'a GIF of an unknown version', type: 'image/gif' as const, bytes: Buffer.from('GIF88a') },
      {
        title: 'a RIFF that is not WebP',
        type: 'image/webp' as const,
        bytes: Buffer.from('RIFF\0\0\0\0WAVEfmt '),
      },
      {
        title: 'an ICO without images',
        type: 'image/x-icon' as const,
        bytes: Buffer.from('000001000000', 'hex'),
      },
      { title: 'an ICO header alone', type: 'image/x-icon' as const, bytes: Buffer.from('00000100', 'hex') },
      { title: 'a PDF without its dash', type: 'application/pdf' as const, bytes: Buffer.from('%PDF1.7') },
      { title: 'nothing at all', type: 'image/jpeg' as const, bytes: new Uint8Array() },
    ])('refuses $title', ({ type, bytes }) => {
      expect(hasSignatureOf(type, bytes)).toBe(false);
    });
  });
});

describe('Function: signatureAmong', () => {
  it('names the first of the types given that the bytes start like', () => {
    expect(signatureAmong(['image/png', 'image/jpeg'], jpeg)).toBe('image/jpeg');
  });

  it('names none when no type given fits', () => {
    expect(signatureAmong(['image/png', 'image/webp'], pdf)).toBeUndefined();
  });
});

describe('Function: isSignedFileType', () => {
  it.each(['image/png', 'image/vnd.microsoft.icon', 'application/pdf'])('knows %s', (type) => {
    expect(isSignedFileType(type)).toBe(true);
  });

  it.each(['image/svg+xml', 'text/plain', 'IMAGE/PNG'])('does not know %s', (type) => {
    expect(isSignedFileType(type)).toBe(false);
  });
});

describe('Function: isPlainText', () => {
  it.each([
    { title: 'ASCII', bytes: Buffer.from('a,b\n1,2\n') },
    { title: 'UTF-8 beyond ASCII', bytes: Buffer.from('Grüße, 東京 ✓') },
    { title: 'an empty file', bytes: new Uint8Array() },
  ])('accepts $title', ({ bytes }) => {
    expect(isPlainText(bytes)).toBe(true);
  });

  it.each([
    { title: 'a NUL character', bytes: Buffer.from('a\0b') },
    { title: 'bytes that are not UTF-8', bytes: Buffer.from([0x61, 0xff, 0xfe]) },
    { title: 'a PNG', bytes: png },
  ])('refuses $title', ({ bytes }) => {
    expect(isPlainText(bytes)).toBe(false);
  });
});
