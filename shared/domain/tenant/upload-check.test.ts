import { describe, expect, it } from 'vitest';
import { checkContent, checkStoredObject, checkSvg } from './upload-check.ts';

const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const jpeg = Buffer.from('ffd8ffe000104a464946', 'hex');
const webp = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x24, 0, 0, 0]), Buffer.from('WEBPVP8 ')]);
const ico = Buffer.from('000001000100101000000100', 'hex');
const svg = (inner: string, attributes = '') =>
  Buffer.from(`<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"${attributes}>${inner}</svg>\n`);

describe('Function: checkStoredObject', () => {
  it.each([
    { title: 'an empty file', size: 0, type: 'image/png', reason: 'empty' },
    { title: 'a logo over 2 MiB', size: 2 * 1024 * 1024 + 1, type: 'image/png', reason: 'too-large' },
    { title: 'another stored type', size: 10, type: 'text/html', reason: 'content-type-mismatch' },
  ])('refuses $title', ({ size, type, reason }) => {
    expect(
      checkStoredObject({ kind: 'logo', declaredType: 'image/png', size, contentType: type }),
    ).toMatchObject({
      ok: false,
      reason,
    });
  });

  it('accepts a logo of exactly 2 MiB stored with its declared type (parameters ignored)', () => {
    expect(
      checkStoredObject({
        kind: 'logo',
        declaredType: 'image/png',
        size: 2 * 1024 * 1024,
        contentType: 'Image/PNG; foo=bar',
      }),
    ).toEqual({ ok: true });
  });

  it('holds a favicon to 256 KiB', () => {
    expect(
      checkStoredObject({
        kind: 'favicon',
        declaredType: 'image/png',
        size: 256 * 1024 + 1,
        contentType: 'image/png',
      }),
    ).toMatchObject({ ok: false, reason: 'too-large' });
  });
});

describe('Function: checkContent', () => {
  it.each([
    { type: 'image/png', bytes: png },
    { type: 'image/jpeg', bytes: jpeg },
    { type: 'image/webp', bytes: webp },
    { type: 'image/x-icon', bytes: ico },
    { type: 'image/vnd.microsoft.icon', bytes: ico },
  ])('accepts $type that starts with its magic bytes', ({ type, bytes }) => {
    expect(checkContent(type, bytes)).toEqual({ ok: true });
  });

  it.each([
    {
      title: 'HTML named as PNG',
      type: 'image/png',
      bytes: Buffer.from('<!DOCTYPE html><script>alert(1)</script>'),
    },
    { title: 'a JPEG declared as PNG', type: 'image/png', bytes: jpeg },
    { title: 'a RIFF that is not WebP', type: 'image/webp', bytes: Buffer.from('RIFF\0\0\0\0WAVEfmt ') },
    { title: 'an ICO without images', type: 'image/x-icon', bytes: Buffer.from('000001000000', 'hex') },
  ])('refuses $title as content-mismatch', ({ type, bytes }) => {
    expect(checkContent(type, bytes)).toMatchObject({ ok: false, reason: 'content-mismatch' });
  });
});

describe('Function: checkSvg', () => {
  it('accepts a plain SVG with gradients, local references and an embedded PNG', () => {
    const file = svg(
      '<defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient></defs>' +
        '<rect width="10" height="10" fill="url(#g)" style="fill: url( \'#g\' )"/>' +
        '<use href="#g"/><image xlink:href="data:image/png;base64,iVBORw0KGgo="/>' +
        '<style>.a { fill: red; }</style><!-- a comment -->',
      ' xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10"',
    );
    expect(checkSvg(file)).toEqual({ ok: true });
  });

  it.each([
    { title: 'a script element', file: svg('<script>alert(1)</script>') },
    { title: 'a namespaced script', file: svg('<svg:script>alert(1)</svg:script>') },
    { title: 'a script in CDATA', file: svg('<style><![CDATA[</style><script>alert(1)</script>]]></style>') },
    { title: 'an onload attribute', file: svg('<rect/>', ' onload="alert(1)"') },
    { title: 'an ONCLICK attribute', file: svg('<rect ONCLICK=alert(1) />') },
    { title: 'a javascript: link', file: svg('<a href="javascript:alert(1)"><rect/></a>') },
    {
      title: 'an entity-encoded javascript: link',
      file: svg('<a href="jav&#x61;script&#58;alert(1)"><rect/></a>'),
    },
    { title: 'a split javascript: link', file: svg('<a href="java\tscript:alert(1)"><rect/></a>') },
    { title: 'foreignObject', file: svg('<foreignObject><div>hi</div></foreignObject>') },
    { title: 'an external image', file: svg('<image href="https://evil.test/x.png"/>') },
    { title: 'an external xlink:href', file: svg('<use xlink:href="https://evil.test/s.svg#a"/>') },
    { title: 'a data: SVG', file: svg('<image href="data:image/svg+xml;base64,PHN2Zz4="/>') },
    { title: 'a CSS url() to elsewhere', file: svg('<rect style="fill: url(https://evil.test/p)"/>') },
    { title: 'a CSS @import', file: svg('<style>@import "https://evil.test/a.css";</style>') },
    {
      title: 'an xml-stylesheet',
      file: Buffer.from('<?xml-stylesheet href="https://evil.test/a.css"?><svg></svg>'),
    },
    { title: 'entity declarations', file: Buffer.from('<!DOCTYPE svg [<!ENTITY a "aaaa">]><svg>&a;</svg>') },
    { title: 'an iframe', file: svg('<iframe src="https://evil.test"/>') },
  ])('refuses $title as unsafe-svg', ({ file }) => {
    expect(checkSvg(file)).toMatchObject({ ok: false, reason: 'unsafe-svg' });
  });

  it.each([
    { title: 'HTML', file: Buffer.from('<html><body>hi</body></html>') },
    { title: 'binary data', file: png },
    { title: 'an SVG with trailing markup', file: Buffer.from('<svg></svg><html></html>') },
  ])('refuses $title as content-mismatch', ({ file }) => {
    expect(checkSvg(file)).toMatchObject({ ok: false, reason: 'content-mismatch' });
  });
});
