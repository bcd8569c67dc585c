/**
 * Routes of the tenant's logo and favicon uploads, part of the `tenant` operation group (its
 * Lambda serves tenant.routes.ts and these). Every role reads an upload's status (tenant:read);
 * owners and admins upload and remove (tenant:update).
 */
import type { z } from 'zod';
import {
  CreateFaviconUploadSchema,
  CreateLogoUploadSchema,
  UploadIdParams,
  UploadIntentSchema,
  UploadStatusSchema,
} from '../../domain/tenant/upload.schema.ts';
import { uploadRules } from '../../domain/tenant/upload-check.ts';
import type { RouteSpec } from '../../http/route-spec.ts';

const common = { group: 'tenant', tags: ['Tenant'], auth: 'bearer' } as const;

const kinds = {
  logo: { Singular: 'Logo', collection: 'logo-uploads', example: 'acme-logo.png', type: 'image/png' },
  favicon: {
    Singular: 'Favicon',
    collection: 'favicon-uploads',
    example: 'favicon.ico',
    type: 'image/x-icon',
  },
} as const;

const flow =
  'How an upload goes: (1) POST the intent with the file’s name and type; (2) POST a `multipart/form-data` form ' +
  'to `upload_fields.url` with every other entry of `upload_fields` as a field and the file last, as the field ' +
  '`file` (a browser does this with a plain `<form method="post" enctype="multipart/form-data">`); (3) read the ' +
  'status until it is no longer PENDING. The service checks the stored file itself before applying it (size, ' +
  'stored Content-Type, the magic bytes of the declared type; an SVG must hold no script, event handler, ' +
  '`javascript:` URL, `<foreignObject>` or reference outside the file), whatever the form or the browser ' +
  'promised. A file that passes becomes the tenant’s logo or favicon at once (a tenant.updated event; the ' +
  'tenant’s `lock_version` moves); one that fails is deleted and the status says why. The bucket is private: ' +
  'the tenant shows the applied file as a URL valid for one hour.';

function rulesOf(kind: keyof typeof kinds): string {
  const { mimeTypes, maxSizeText } = uploadRules[kind];
  return `A ${kind} may be ${mimeTypes.join(', ')}, 1 byte to ${maxSizeText}.`;
}

// Examples: an upload form made on 11 June 2026 at 07:40 UTC, valid 10 minutes.
const fileId = '019e5a3c-7f10-7c2e-9a41-3d2b8c6e1f05';
const intentExample = (kind: keyof typeof kinds) => ({
  file_id: fileId,
  upload_fields: {
    url: 'https://fsm-prod-uploads.s3.eu-central-1.amazonaws.com/',
    'Content-Type': kinds[kind].type,
    bucket: 'fsm-prod-uploads',
    'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
    'X-Amz-Credential': 'ASIAEXAMPLEKEYID/20260611/eu-central-1/s3/aws4_request',
    'X-Amz-Date': '20260611T074000Z',
    'X-Amz-Security-Token': 'IQoJb3JpZ2luX2VjEXAMPLE',
    key: `pending/tenants/019d2f40-0000-7000-8000-00000000a1b2/${kind}/${fileId}`,
    Policy: 'eyJleHBpcmF0aW9uIjoiMjAyNi0wNi0xMVQwNzo1MDowMFoiLCJjb25kaXRpb25zIjpbXX0=',
    'X-Amz-Signature': '6f1c2e0d9b8a7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d',
  },
  expires_at_utc: '2026-06-11T07:50:00Z',
});
const statusExample = (kind: keyof typeof kinds) => ({
  file_id: fileId,
  kind,
  status: 'UPLOADED',
  applied: true,
  original_file_name: kinds[kind].example,
  mime_type: kinds[kind].type,
  size_bytes: kind === 'logo' ? 48213 : 15086,
  expires_at_utc: '2026-06-11T07:50:00Z',
  created_at: '2026-06-11T07:40:00Z',
  checked_at: '2026-06-11T07:40:09Z',
});

function uploadRoutes<K extends keyof typeof kinds, S extends z.ZodType>(kind: K, body: S) {
  const { Singular, collection, example, type } = kinds[kind];
  return [
    {
      ...common,
      grants: ['tenant:update'],
      operationId: `tenant.${kind}_uploads.create` as `tenant.${K}_uploads.create`,
      method: 'POST',
      path: `/api/v2/tenant/${collection}`,
      summary: `Create a ${kind} upload`,
      description:
        `Signs an upload form (an S3 presigned POST) for one ${kind} file and answers it with the upload's ` +
        '`file_id`. The service picks the storage key; the form pins the declared `mime_type` as the ' +
        `Content-Type, the size to 1 byte..${uploadRules[kind].maxSizeText} and its expiry (10 minutes, ` +
        '`expires_at_utc`). ' +
        `${rulesOf(kind)} Another \`mime_type\`, or a blank or longer than 255 characters ` +
        '`original_file_name`, is 422 at its pointer before anything is signed.\n\n' +
        `${flow}\n\nLocation: the upload's status record.`,
      examples: { request: { original_file_name: example, mime_type: type }, response: intentExample(kind) },
      body,
      success: { status: 201, description: 'The upload form.', schema: UploadIntentSchema },
    },
    {
      ...common,
      grants: ['tenant:read'],
      operationId: `tenant.${kind}_uploads.get` as `tenant.${K}_uploads.get`,
      method: 'GET',
      path: `/api/v2/tenant/${collection}/{file_id}`,
      summary: `Read a ${kind} upload's status`,
      description:
        `What became of a ${kind} upload: PENDING until a file has arrived, then UPLOADED with \`applied\` ` +
        'true once it passed the checks and became the tenant’s ' +
        `${kind}, or REJECTED with a \`reason\` (\`empty\`, \`too-large\`, \`content-type-mismatch\`, ` +
        '`content-mismatch`: the bytes are not the declared type, e.g. HTML named .png; `unsafe-svg`; ' +
        '`form-expired`: it arrived after the form expired); EXPIRED when the form expired without a ' +
        'file; SUPERSEDED when a later upload had already been applied. UPLOADED, REJECTED and ' +
        'SUPERSEDED are final: a new file needs a new upload.\n\n' +
        'Reading a pending upload checks its file when it has arrived (on AWS an S3 event usually did so ' +
        `already). ${rulesOf(kind)} Status records are kept 7 days. A \`file_id\` of another ` +
        `workspace, or of a ${kind === 'logo' ? 'favicon' : 'logo'} upload, is 404.`,
      examples: { response: statusExample(kind) },
      params: UploadIdParams,
      success: { status: 200, description: 'The status record.', schema: UploadStatusSchema },
    },
    {
      ...common,
      grants: ['tenant:update'],
      operationId: `tenant.${kind}.delete` as `tenant.${K}.delete`,
      method: 'DELETE',
      path: `/api/v2/tenant/${kind}`,
      summary: `Remove the ${kind}`,
      description:
        `The tenant has no ${kind} afterwards and its file is deleted from the bucket. Idempotent: removing ` +
        `when there is none answers 204 as well (and changes nothing). A removal moves the tenant’s ` +
        `lock_version and emits tenant.updated. Uploads still pending are not cancelled: one that passes ` +
        `its check later becomes the ${kind}. ${Singular}s are uploaded through POST /api/v2/tenant/${collection}.`,
      examples: {},
      success: { status: 204, description: `The tenant has no ${kind}.` },
    },
  ] as const;
}

export const tenantUploadRoutes = [
  ...uploadRoutes('logo', CreateLogoUploadSchema),
  ...uploadRoutes('favicon', CreateFaviconUploadSchema),
] as const satisfies readonly RouteSpec[];
