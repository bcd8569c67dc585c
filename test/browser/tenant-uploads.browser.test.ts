/**
 * A logo upload in a real browser (the system's Chromium through playwright-core), as a web page
 * does it: a page of another origin holds a plain `<form method="post" enctype="multipart/form-data">`
 * built from the intent's `upload_fields`, the user picks a file, the form is submitted straight to
 * the bucket (the local S3 emulator), and the status read then finds the file checked and applied.
 * A form submission is a navigation, not a fetch, so it needs no CORS answer from the emulator.
 */
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, tokenFor } from '../support/api.ts';
import { htmlPage, pngImage } from '../support/upload-files.ts';

const chromiumPath = process.env.FSM_CHROMIUM_PATH ?? '/usr/bin/chromium';
const missing = existsSync(chromiumPath)
  ? undefined
  : `no Chromium at ${chromiumPath}: install it (apt-get install -y chromium) or set FSM_CHROMIUM_PATH`;

const escapeHtml = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The page a web app would render for an intent: hidden fields, then the file input, last. */
function uploadPage(fields: Record<string, string>): string {
  const { url, ...formFields } = fields;
  const hidden = Object.entries(formFields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n      ');
  return `<!DOCTYPE html>
<html lang="en">
  <head><meta charset="utf-8"><title>Upload your logo</title></head>
  <body>
    <form method="post" action="${escapeHtml(url ?? '')}" enctype="multipart/form-data">
      ${hidden}
      <input type="file" name="file" accept="image/png,image/jpeg,image/webp,image/svg+xml">
      <button type="submit">Upload</button>
    </form>
  </body>
</html>`;
}

describe('Logo upload from a web page in a real browser', () => {
  let browser: Browser | undefined;
  let server: Server;
  let pageOrigin: string;
  let html = '';
  let admin: string;

  beforeAll(async () => {
    admin = await tokenFor('dedicated-admin');
    server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(html);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    pageOrigin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    if (!missing) browser = await chromium.launch({ executablePath: chromiumPath });
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  /** Intent, page, file chosen, form submitted: the bucket's answer and the upload's status. */
  async function uploadThroughPage(file: { name: string; mimeType: string; buffer: Buffer }) {
    if (!browser) throw new Error('no browser');
    const page = await browser.newPage();
    try {
      const created = await call('POST', '/api/v2/tenant/logo-uploads', {
        token: admin,
        body: { original_file_name: file.name, mime_type: file.mimeType },
      });
      expect(created.status).toBe(201);
      const { file_id: fileId, upload_fields: fields } = created.body;
      html = uploadPage(fields);
      await page.goto(pageOrigin);
      await page.setInputFiles('input[type=file]', file);
      const [answer] = await Promise.all([
        page.waitForResponse(
          (response) => response.url() === fields.url && response.request().method() === 'POST',
        ),
        page.click('button[type=submit]'),
      ]);
      const sent = answer.request();
      const status = await call('GET', `/api/v2/tenant/logo-uploads/${fileId}`, { token: admin });
      return { fileId, answer, sentContentType: await sent.headerValue('content-type'), status };
    } finally {
      await page.close();
    }
  }

  it('submits the form with the chosen PNG; the status read then shows it UPLOADED and applied', async (context) => {
    if (missing || !browser) {
      console.warn(`skipping the browser upload test: ${missing}`);
      context.skip(missing);
      return;
    }
    // Prepare
    const image = pngImage(8, 8, [0xe0, 0x40, 0x20]);

    // Act
    const { fileId, answer, sentContentType, status } = await uploadThroughPage({
      name: 'logo.png',
      mimeType: 'image/png',
      buffer: image,
    });
    const tenant = await call('GET', '/api/v2/tenant', { token: admin });

    // Assess
    expect(sentContentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(answer.status()).toBe(204);
    expect(status.body).toMatchObject({
      file_id: fileId,
      status: 'UPLOADED',
      applied: true,
      size_bytes: image.length,
    });
    const logo = await fetch(tenant.body.logo_url);
    expect(Buffer.from(await logo.arrayBuffer()).equals(image)).toBe(true);
  }, 60_000);

  it('lands an HTML page the user picked as logo.png in the bucket, and the check rejects it', async (context) => {
    if (missing || !browser) {
      context.skip(missing);
      return;
    }
    // Act
    const { answer, status } = await uploadThroughPage({
      name: 'logo.png',
      mimeType: 'image/png',
      buffer: htmlPage,
    });

    // Assess
    expect(answer.status()).toBe(204);
    expect(status.body).toMatchObject({ status: 'REJECTED', reason: 'content-mismatch', applied: false });
  }, 60_000);
});
