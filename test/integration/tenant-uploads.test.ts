/**
 * Logo and favicon uploads over HTTP: the intent and its presigned POST form, the file posted to
 * the local S3 emulator as a browser would, and the status read that checks the stored file
 * before applying it. The emulator enforces no POST policy, so every forged upload below really
 * lands in the bucket: what refuses it is the service's own check. The test service's forms are
 * valid for FSM_UPLOAD_FORM_SECONDS (8 s, test/support/global-setup.ts) so an expired form can be
 * tried.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, call, eventually, problemType, tokenFor } from '../support/api.ts';
import {
  htmlPage,
  icoImage,
  largePng,
  pngImage,
  policyOf,
  postUploadForm,
  safeSvg,
  scriptSvg,
} from '../support/upload-files.ts';

let admin: string;
let technician: string;
let beta: string;

beforeAll(async () => {
  [admin, technician, beta] = await Promise.all([
    tokenFor('acme-admin'),
    tokenFor('acme-technician'),
    tokenFor('beta-admin'),
  ]);
});

type Kind = 'logo' | 'favicon';
const collection = (kind: Kind) => `/api/v2/tenant/${kind}-uploads`;

async function createIntent(kind: Kind, body: Record<string, unknown>, token = admin): Promise<ApiResponse> {
  return call('POST', collection(kind), { token, body });
}

async function intentFor(kind: Kind, name: string, type: string) {
  const created = await createIntent(kind, { original_file_name: name, mime_type: type });
  expect(created.status, created.text).toBe(201);
  return created.body as { file_id: string; upload_fields: Record<string, string>; expires_at_utc: string };
}

async function statusOf(kind: Kind, fileId: string, token = admin): Promise<ApiResponse> {
  return call('GET', `${collection(kind)}/${fileId}`, { token });
}

/** Intent, then the file posted with its form (as the browser posts it), then the status read. */
async function upload(
  kind: Kind,
  file: { bytes: Buffer; name: string; type: string },
  override: Record<string, string> = {},
): Promise<{ fileId: string; status: ApiResponse }> {
  const intent = await intentFor(kind, file.name, file.type);
  const posted = await postUploadForm(intent.upload_fields, file, override);
  expect(posted.status).toBe(204);
  const status = await statusOf(kind, intent.file_id);
  expect(status.status, status.text).toBe(200);
  return { fileId: intent.file_id, status };
}

const sleepUntil = (at: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));

describe('Tenant uploads: the intent', () => {
  it('signs a POST form for a server-chosen key with the type pinned, a size range and an expiry', async () => {
    // Act
    const created = await createIntent('logo', {
      original_file_name: 'Acme Logo.png',
      mime_type: 'image/png',
    });

    // Assess
    expect(created.status).toBe(201);
    const { file_id: fileId, upload_fields: fields, expires_at_utc: expiresAt } = created.body;
    expect(fileId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(created.headers.get('location')).toMatch(new RegExp(`/api/v2/tenant/logo-uploads/${fileId}$`));
    expect(Object.values(fields).every((value) => typeof value === 'string')).toBe(true);
    expect(fields).toMatchObject({
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/fsm-uploads$/),
      key: expect.stringMatching(new RegExp(`^pending/tenants/[0-9a-f-]{36}/logo/${fileId}$`)),
      'Content-Type': 'image/png',
      'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
      Policy: expect.any(String),
      'X-Amz-Signature': expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(fields.key).not.toContain('Acme Logo');
    const untilExpiry = Date.parse(expiresAt) - Date.now();
    expect(untilExpiry).toBeGreaterThan(0);
    expect(untilExpiry).toBeLessThanOrEqual(8_000);
    const policy = policyOf(fields);
    expect(Date.parse(policy.expiration)).toBeGreaterThanOrEqual(Date.parse(expiresAt));
    expect(policy.conditions).toEqual(
      expect.arrayContaining([
        ['content-length-range', 1, 2 * 1024 * 1024],
        { 'Content-Type': 'image/png' },
        { key: fields.key },
      ]),
    );
  });

  it('limits a favicon to 256 KiB and answers PENDING until a file arrives', async () => {
    // Act
    const intent = await intentFor('favicon', 'favicon.ico', 'image/x-icon');
    const status = await statusOf('favicon', intent.file_id);

    // Assess
    expect(policyOf(intent.upload_fields).conditions).toContainEqual(['content-length-range', 1, 256 * 1024]);
    expect(status.status).toBe(200);
    expect(status.body).toEqual({
      file_id: intent.file_id,
      kind: 'favicon',
      status: 'PENDING',
      applied: false,
      original_file_name: 'favicon.ico',
      mime_type: 'image/x-icon',
      expires_at_utc: intent.expires_at_utc,
      created_at: expect.any(String),
    });
  });

  it.each([
    {
      title: 'a GIF logo',
      kind: 'logo',
      body: { original_file_name: 'a.gif', mime_type: 'image/gif' },
      at: '#/mime_type',
    },
    {
      title: 'an SVG favicon',
      kind: 'favicon',
      body: { original_file_name: 'a.svg', mime_type: 'image/svg+xml' },
      at: '#/mime_type',
    },
    {
      title: 'HTML as a logo',
      kind: 'logo',
      body: { original_file_name: 'a.png', mime_type: 'text/html' },
      at: '#/mime_type',
    },
    {
      title: 'an upper-case type',
      kind: 'logo',
      body: { original_file_name: 'a.png', mime_type: 'IMAGE/PNG' },
      at: '#/mime_type',
    },
    {
      title: 'a too long file name',
      kind: 'logo',
      body: { original_file_name: `${'a'.repeat(252)}.png`, mime_type: 'image/png' },
      at: '#/original_file_name',
    },
  ] as const)('refuses $title with 422 at $at before signing anything', async ({ kind, body, at }) => {
    // Act
    const response = await createIntent(kind, body);

    // Assess
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect(response.body.errors).toEqual([expect.objectContaining({ pointer: at })]);
    expect(response.text).not.toContain('X-Amz-Signature');
  });

  it.each([
    {
      title: 'a blank file name',
      body: { original_file_name: '  ', mime_type: 'image/png' },
      at: '#/original_file_name',
    },
    { title: 'no file name', body: { mime_type: 'image/png' }, at: '#/original_file_name' },
    { title: 'a blank type', body: { original_file_name: 'a.png', mime_type: '' }, at: '#/mime_type' },
  ])('answers $title with 422 field-required', async ({ body, at }) => {
    // Act
    const response = await createIntent('logo', body);

    // Assess
    expect(response.status).toBe(422);
    expect(response.body.type).toEqual(problemType('field-required'));
    expect(response.body.errors).toEqual([expect.objectContaining({ pointer: at })]);
  });

  it('lets owners and admins upload and remove, and everyone read a status (technician: 403 on writes)', async () => {
    // Prepare
    const intent = await intentFor('logo', 'logo.png', 'image/png');

    // Act
    const [create, remove, read] = await Promise.all([
      createIntent('logo', { original_file_name: 'x.png', mime_type: 'image/png' }, technician),
      call('DELETE', '/api/v2/tenant/logo', { token: technician }),
      statusOf('logo', intent.file_id, technician),
    ]);

    // Assess
    expect(create.status).toBe(403);
    expect(create.body.data).toMatchObject({ reason: 'missing_grant', required_grants: ['tenant:update'] });
    expect(remove.status).toBe(403);
    expect(read.status).toBe(200);
  });

  it('leaves an audit entry for each intent it creates, with its status record and never its form', async () => {
    // Prepare
    const logo = await intentFor('logo', 'logo.png', 'image/png');
    const favicon = await intentFor('favicon', 'favicon.ico', 'image/x-icon');

    // Act
    const entries = await eventually(async () => {
      const log = await call('GET', '/api/v2/audit-logs?size=100', { token: admin });
      const found = (log.body.items as Array<Record<string, any>>).filter((entry) =>
        [logo.file_id, favicon.file_id].includes(entry.resource.id),
      );
      expect(found).toHaveLength(2);
      return found;
    });
    const catalog = await call('GET', '/api/v2/webhooks/event-types', { token: admin });

    // Assess
    expect(entries.map((entry) => [entry.event_type, entry.data.object.file_id]).sort()).toEqual([
      ['tenant.favicon_upload.created', favicon.file_id],
      ['tenant.logo_upload.created', logo.file_id],
    ]);
    const logoEntry = entries.find((entry) => entry.resource.id === logo.file_id);
    expect(logoEntry?.data.object).toMatchObject({
      kind: 'logo',
      status: 'PENDING',
      original_file_name: 'logo.png',
      mime_type: 'image/png',
      expires_at_utc: logo.expires_at_utc,
    });
    expect(JSON.stringify(entries)).not.toContain(logo.upload_fields.Policy ?? 'no policy');
    expect(catalog.body.items.map((item: { type: string }) => item.type)).not.toContain(
      'tenant.logo_upload.created',
    );
  });

  it('answers 404 for an upload of another workspace, of the other kind, or an id that is no uuid', async () => {
    // Prepare
    const intent = await intentFor('logo', 'logo.png', 'image/png');

    // Act
    const [foreign, otherKind, malformed, unknown] = await Promise.all([
      statusOf('logo', intent.file_id, beta),
      statusOf('favicon', intent.file_id),
      statusOf('logo', 'not-a-uuid'),
      statusOf('logo', '019e5a3c-7f10-7c2e-9a41-3d2b8c6e1f05'),
    ]);

    // Assess
    for (const response of [foreign, otherKind, malformed, unknown]) {
      expect(response.status).toBe(404);
      expect(response.body.type).toEqual(problemType('not-found'));
    }
  });
});

describe('Tenant uploads: checking and applying the stored file', () => {
  it('applies a real PNG logo: UPLOADED, applied, and the tenant shows it through a short-lived URL', async () => {
    // Prepare
    const image = pngImage(4, 3);

    // Act
    const { fileId, status } = await upload('logo', { bytes: image, name: 'logo.png', type: 'image/png' });
    const tenant = await call('GET', '/api/v2/tenant', { token: admin });

    // Assess
    expect(status.body).toMatchObject({
      file_id: fileId,
      kind: 'logo',
      status: 'UPLOADED',
      applied: true,
      size_bytes: image.length,
      checked_at: expect.any(String),
    });
    expect(status.body).not.toHaveProperty('reason');
    expect(tenant.status).toBe(200);
    const logoUrl = new URL(tenant.body.logo_url);
    expect(logoUrl.pathname).toMatch(new RegExp(`/logo/${fileId}$`));
    expect(logoUrl.pathname).not.toContain('pending/');
    expect(logoUrl.searchParams.get('X-Amz-Expires')).toBe('3600');
    expect(logoUrl.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    const served = await fetch(logoUrl);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(image)).toBe(true);
  });

  it('keeps the outcome: a second read answers the same record without checking again', async () => {
    // Prepare
    const { fileId, status } = await upload('logo', {
      bytes: pngImage(),
      name: 'again.png',
      type: 'image/png',
    });

    // Act
    const [first, second] = await Promise.all([statusOf('logo', fileId), statusOf('logo', fileId)]);

    // Assess
    expect(first.body).toEqual(status.body);
    expect(second.body).toEqual(status.body);
  });

  it('applies one upload once when two status reads check it at the same time', async () => {
    // Prepare
    const intent = await intentFor('favicon', 'favicon.png', 'image/png');
    await postUploadForm(intent.upload_fields, {
      bytes: pngImage(16, 16),
      name: 'favicon.png',
      type: 'image/png',
    });

    // Act
    const reads = await Promise.all([1, 2, 3].map(() => statusOf('favicon', intent.file_id)));

    // Assess
    for (const read of reads) expect(read.body).toMatchObject({ status: 'UPLOADED', applied: true });
    expect(new Set(reads.map((read) => read.body.checked_at)).size).toBe(1);
  });

  it('applies an ICO favicon and a plain SVG logo', async () => {
    // Act
    const [favicon, logo] = await Promise.all([
      upload('favicon', { bytes: icoImage(), name: 'favicon.ico', type: 'image/x-icon' }),
      upload('logo', { bytes: safeSvg, name: 'logo.svg', type: 'image/svg+xml' }),
    ]);

    // Assess
    expect(favicon.status.body).toMatchObject({ status: 'UPLOADED', applied: true });
    expect(logo.status.body).toMatchObject({ status: 'UPLOADED', applied: true });
  });

  it.each([
    {
      title: 'an HTML page named logo.png and declared image/png',
      kind: 'logo',
      file: { bytes: htmlPage, name: 'logo.png', type: 'image/png' },
      reason: 'content-mismatch',
      detail: /HTML/,
    },
    {
      title: 'a JPEG declared as PNG',
      kind: 'logo',
      file: { bytes: Buffer.from('ffd8ffe000104a46494600', 'hex'), name: 'logo.png', type: 'image/png' },
      reason: 'content-mismatch',
      detail: /image\/jpeg/,
    },
    {
      title: 'an SVG with a script',
      kind: 'logo',
      file: { bytes: scriptSvg, name: 'logo.svg', type: 'image/svg+xml' },
      reason: 'unsafe-svg',
      detail: /script/,
    },
    {
      title: 'a logo over 2 MiB (the emulator ignores the size range)',
      kind: 'logo',
      file: { bytes: largePng(2 * 1024 * 1024), name: 'big.png', type: 'image/png' },
      reason: 'too-large',
      detail: /2 MiB/,
    },
    {
      title: 'a favicon over 256 KiB',
      kind: 'favicon',
      file: { bytes: largePng(256 * 1024), name: 'favicon.png', type: 'image/png' },
      reason: 'too-large',
      detail: /256 KiB/,
    },
  ] as const)('rejects $title and deletes it', async ({ kind, file, reason, detail }) => {
    // Act
    const { status } = await upload(kind, { ...file, bytes: Buffer.from(file.bytes) });

    // Assess
    expect(status.body).toMatchObject({
      status: 'REJECTED',
      applied: false,
      reason,
      size_bytes: file.bytes.length,
    });
    expect(status.body.reason_detail).toMatch(detail);
  });

  it('rejects a file posted with another Content-Type than the intent declared', async () => {
    // Act: the form's Content-Type field changed on the way (the emulator does not check the policy)
    const { status } = await upload(
      'logo',
      { bytes: pngImage(), name: 'logo.png', type: 'image/png' },
      { 'Content-Type': 'text/html' },
    );

    // Assess
    expect(status.body).toMatchObject({
      status: 'REJECTED',
      reason: 'content-type-mismatch',
      applied: false,
    });
  });

  it('keeps the applied logo when a later upload is rejected', async () => {
    // Prepare
    const good = await upload('logo', { bytes: pngImage(5, 5), name: 'good.png', type: 'image/png' });
    const before = await call('GET', '/api/v2/tenant', { token: admin });

    // Act
    const bad = await upload('logo', { bytes: htmlPage, name: 'bad.png', type: 'image/png' });
    const after = await call('GET', '/api/v2/tenant', { token: admin });

    // Assess
    expect(good.status.body.applied).toBe(true);
    expect(bad.status.body.status).toBe('REJECTED');
    expect(new URL(before.body.logo_url).pathname).toMatch(new RegExp(`/logo/${good.fileId}$`));
    expect(new URL(after.body.logo_url).pathname).toMatch(new RegExp(`/logo/${good.fileId}$`));
    expect(after.body.lock_version).toBe(before.body.lock_version);
  });

  it('does not let an older upload that is checked late replace a newer applied one (SUPERSEDED)', async () => {
    // Prepare
    const older = await intentFor('favicon', 'old.png', 'image/png');
    const newer = await intentFor('favicon', 'new.png', 'image/png');
    await postUploadForm(newer.upload_fields, {
      bytes: pngImage(16, 16),
      name: 'new.png',
      type: 'image/png',
    });
    await postUploadForm(older.upload_fields, {
      bytes: pngImage(32, 32),
      name: 'old.png',
      type: 'image/png',
    });

    // Act
    const newerStatus = await statusOf('favicon', newer.file_id);
    const olderStatus = await statusOf('favicon', older.file_id);

    // Assess
    expect(newerStatus.body).toMatchObject({ status: 'UPLOADED', applied: true });
    expect(olderStatus.body).toMatchObject({ status: 'SUPERSEDED', applied: false });
  });

  it('marks a form that expired without a file EXPIRED, and rejects a file posted after the expiry', async () => {
    // Prepare
    const [unused, late] = await Promise.all([
      intentFor('logo', 'never.png', 'image/png'),
      intentFor('logo', 'late.png', 'image/png'),
    ]);
    await sleepUntil(Date.parse(late.expires_at_utc) + 3_000);

    // Act: the emulator still takes the file; on AWS S3 itself would refuse the expired form
    const posted = await postUploadForm(late.upload_fields, {
      bytes: pngImage(),
      name: 'late.png',
      type: 'image/png',
    });
    const [unusedStatus, lateStatus] = await Promise.all([
      statusOf('logo', unused.file_id),
      statusOf('logo', late.file_id),
    ]);

    // Assess
    expect(posted.status).toBe(204);
    expect(unusedStatus.body).toMatchObject({ status: 'EXPIRED', applied: false });
    expect(lateStatus.body).toMatchObject({ status: 'REJECTED', reason: 'form-expired', applied: false });
  });
});

describe('Tenant uploads: removing the logo and favicon', () => {
  it('removes the favicon with 204, and again with 204 changing nothing; its file is gone', async () => {
    // Prepare
    await upload('favicon', { bytes: icoImage(), name: 'favicon.ico', type: 'image/x-icon' });
    const before = await call('GET', '/api/v2/tenant', { token: admin });
    expect(before.body.favicon_url).toBeDefined();

    // Act
    const first = await call('DELETE', '/api/v2/tenant/favicon', { token: admin });
    const afterFirst = await call('GET', '/api/v2/tenant', { token: admin });
    const second = await call('DELETE', '/api/v2/tenant/favicon', { token: admin });
    const afterSecond = await call('GET', '/api/v2/tenant', { token: admin });

    // Assess
    expect(first.status).toBe(204);
    expect(first.text).toBe('');
    expect(second.status).toBe(204);
    expect(afterFirst.body).not.toHaveProperty('favicon_url');
    expect(afterFirst.body.lock_version).toBeGreaterThan(before.body.lock_version);
    expect(afterSecond.body.lock_version).toBe(afterFirst.body.lock_version);
    expect((await fetch(before.body.favicon_url)).status).toBe(404);
  });

  it('removes the logo; another workspace’s logo is untouched', async () => {
    // Prepare
    await upload('logo', { bytes: pngImage(), name: 'logo.png', type: 'image/png' });

    // Act
    const removed = await call('DELETE', '/api/v2/tenant/logo', { token: beta });
    const acme = await call('GET', '/api/v2/tenant', { token: admin });
    const own = await call('DELETE', '/api/v2/tenant/logo', { token: admin });
    const acmeAfter = await call('GET', '/api/v2/tenant', { token: admin });

    // Assess
    expect(removed.status).toBe(204);
    expect(acme.body.logo_url).toBeDefined();
    expect(own.status).toBe(204);
    expect(acmeAfter.body).not.toHaveProperty('logo_url');
  });
});
