/**
 * Logo and favicon uploads (SPEC.md, Tenant: upload intent and status record). An intent names
 * the file; the answer is a presigned POST form the browser sends the file with, straight to the
 * private bucket; the status record says what the service found when it checked the stored file.
 * Published schema names: CreateLogoUpload, CreateFaviconUpload, UploadIntent, UploadStatus.
 */
import * as z from 'zod';
import { text } from '../../schema/fields.ts';
import { rejectionReasons, type UploadKind, uploadRules } from './upload-check.ts';

export const uploadStatuses = ['PENDING', 'UPLOADED', 'REJECTED', 'EXPIRED', 'SUPERSEDED'] as const;
export type UploadStatus = (typeof uploadStatuses)[number];

/** Longest file name an intent takes: what file systems allow for one name. */
export const maxFileNameLength = 255;

function createUploadSchema(kind: UploadKind, id: string) {
  const { mimeTypes, maxSizeText } = uploadRules[kind];
  return z
    .object({
      original_file_name: text({ max: maxFileNameLength }).meta({
        description:
          `The name of the file on the user's device, 1..${maxFileNameLength} characters; shown in the status ` +
          'record only. The service picks the storage key itself; the name decides nothing about the content.',
        example: kind === 'logo' ? 'acme-logo.png' : 'favicon.ico',
      }),
      mime_type: text({ max: 100 })
        .check((ctx) => {
          if (ctx.value.trim() && !(mimeTypes as readonly string[]).includes(ctx.value)) {
            ctx.issues.push({
              code: 'custom',
              input: ctx.value,
              message: `must be one of ${mimeTypes.join(', ')} for a ${kind}`,
            });
          }
        })
        // A MIME type is an extensible value (SPEC.md, Conventions): a string whose accepted values
        // are documented, not an enum a client generator would close; another is a field-level 422.
        .meta({
          description:
            `The file's media type (as a browser's File.type gives it); accepted for a ${kind}: ` +
            `${mimeTypes.join(', ')}, any other is 422 at \`#/mime_type\`. The upload form pins it as the ` +
            `stored Content-Type; the stored bytes must be of this type. At most ${maxSizeText}.`,
          example: mimeTypes[0],
        }),
    })
    .meta({ id, description: `Names the ${kind} file about to be uploaded.` });
}

export const CreateLogoUploadSchema = createUploadSchema('logo', 'CreateLogoUpload');
export const CreateFaviconUploadSchema = createUploadSchema('favicon', 'CreateFaviconUpload');
export type CreateUpload = z.output<typeof CreateLogoUploadSchema>;

export const UploadIntentSchema = z
  .object({
    file_id: z.uuid().meta({ description: 'Identifier of the upload; its status is read under it.' }),
    upload_fields: z
      .object({ url: z.url().meta({ description: 'Where to POST the form (the bucket).' }) })
      .catchall(z.string())
      .meta({
        description:
          'Every field of the presigned POST form, and `url`, where to send it. POST a ' +
          '`multipart/form-data` body to `url` with each field as given (posting `url` along is harmless), ' +
          'then the file as the last part, named `file`. The fields include `key`, `Content-Type`, ' +
          '`Policy`, `X-Amz-Algorithm`, `X-Amz-Credential`, `X-Amz-Date`, `X-Amz-Signature` and, with ' +
          'temporary credentials, `X-Amz-Security-Token`; treat them as opaque.',
      }),
    expires_at_utc: z.iso.datetime().meta({
      description: 'The form is valid until then (UTC); a file that arrives later is never applied.',
    }),
  })
  .meta({ id: 'UploadIntent', description: 'A presigned upload form for one logo or favicon file.' });

export type UploadIntent = z.infer<typeof UploadIntentSchema>;

const reasonList = Object.entries(rejectionReasons)
  .map(([code, meaning]) => `\`${code}\` (${meaning})`)
  .join(', ');

export const UploadStatusSchema = z
  .object({
    file_id: z.uuid(),
    kind: z.enum(['logo', 'favicon']).meta({ description: 'What the file is for.' }),
    status: z.enum(uploadStatuses).meta({
      description:
        'PENDING: no file has arrived yet and the form is still valid. UPLOADED: the file arrived and passed ' +
        'the checks. REJECTED: the file arrived and failed them (see `reason`); it was deleted. EXPIRED: the ' +
        'form expired and no file arrived. SUPERSEDED: the file passed the checks, but an upload of the same ' +
        'kind created later had already been applied, so this one was not.',
    }),
    applied: z.boolean().meta({
      description:
        'Whether the file became the tenant’s logo or favicon (it stays true when a later one replaces it).',
    }),
    reason: z
      .enum(Object.keys(rejectionReasons) as [keyof typeof rejectionReasons])
      .optional()
      .meta({ description: `Why the file was refused (REJECTED only): ${reasonList}.` }),
    reason_detail: z
      .string()
      .optional()
      .meta({ description: 'What the check found, for people; wording may change (REJECTED only).' }),
    original_file_name: z.string().meta({ description: 'As the intent named it.' }),
    mime_type: z.string().meta({ description: 'As the intent declared it.' }),
    size_bytes: z
      .int()
      .min(0)
      .optional()
      .meta({ description: 'Size of the file that arrived; omitted until then.' }),
    expires_at_utc: z.iso.datetime().meta({ description: 'When the upload form expires (expired).' }),
    created_at: z.iso.datetime().meta({ description: 'When the intent was created.' }),
    checked_at: z.iso
      .datetime()
      .optional()
      .meta({ description: 'When the service checked the file (UPLOADED, REJECTED, SUPERSEDED).' }),
  })
  .meta({ id: 'UploadStatus', description: 'What became of one logo or favicon upload.' });

export type UploadStatusRecord = z.infer<typeof UploadStatusSchema>;

export const UploadIdParams = z.object({
  file_id: z.uuid().meta({ description: 'The `file_id` of the upload intent.' }),
});
