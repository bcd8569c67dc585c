/**
 * Tenant: the workspace's own record (SPEC.md, Tenant): its name, content language, region and
 * time zone, and the logo and favicon once uploaded and checked (tenant-uploads). Read by every
 * role (tenant:read), changed by owners and admins (tenant:update). Published schema names:
 * Tenant, UpdateTenant.
 */
import * as z from 'zod';
import { lockVersion, storedVersion, text } from '../../schema/fields.ts';
import { countryCode } from '../cases/country-code.ts';

/**
 * A content language tag (BCP 47), canonicalised by the runtime's ICU (Intl.getCanonicalLocales),
 * not by a table of ours. Legacy locale forms are read as the tag they mean: `de_DE` → `de-DE`,
 * `pt_BR.UTF-8` → `pt-BR` (the `_` separator, an encoding and a `@modifier` are POSIX locale
 * syntax, never part of a tag).
 */
export function normalisedLanguage(value: string): string | undefined {
  const tag = value
    .trim()
    .replace(/[.@].*$/, '')
    .replaceAll('_', '-');
  if (!tag) return undefined;
  try {
    const [canonical] = Intl.getCanonicalLocales(tag);
    return canonical;
  } catch {
    return undefined;
  }
}

/** An IANA time zone the runtime knows (its Intl data), in its canonical spelling. */
export function normalisedTimezone(value: string): string | undefined {
  try {
    return new Intl.DateTimeFormat('en', { timeZone: value.trim() }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

const language = text({ max: 32 }).transform((value, ctx) => {
  const tag = normalisedLanguage(value);
  if (!tag) {
    ctx.issues.push({
      code: 'custom',
      input: value,
      message: 'must be a BCP 47 language tag such as de-DE or en (legacy forms such as de_DE are accepted)',
    });
    return z.NEVER;
  }
  if (tag.length > 10) {
    ctx.issues.push({
      code: 'custom',
      input: value,
      message: `must be at most 10 characters as a tag (${tag})`,
    });
    return z.NEVER;
  }
  return tag;
});

const timezone = text({ max: 50 }).transform((value, ctx) => {
  const zone = normalisedTimezone(value);
  if (!zone || zone.length > 50) {
    ctx.issues.push({
      code: 'custom',
      input: value,
      message: 'must be an IANA time zone such as Europe/Berlin',
    });
    return z.NEVER;
  }
  return zone;
});

export const TenantSchema = z
  .object({
    id: z.uuid().meta({ description: 'The workspace id (the `tenant_id` claim of its tokens).' }),
    name: z.string().meta({ description: 'Display name of the workspace.' }),
    language: z
      .string()
      .optional()
      .meta({ description: 'Content language, a BCP 47 tag; omitted when unset.' }),
    region: z.string().optional().meta({ description: 'ISO 3166-1 alpha-2 country; omitted when unset.' }),
    timezone: z.string().optional().meta({ description: 'IANA time zone; omitted when unset.' }),
    logo_url: z.string().optional().meta({
      description: 'The applied logo: a short-lived (1 h) URL of the private bucket; omitted when none.',
    }),
    favicon_url: z.string().optional().meta({
      description: 'The applied favicon: a short-lived (1 h) URL; omitted when none.',
    }),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
    lock_version: storedVersion().meta({
      description: 'Increments with every change of the record (also the admin plane’s state changes).',
    }),
  })
  .meta({ id: 'Tenant', description: 'The workspace record.' });

export type Tenant = z.infer<typeof TenantSchema>;

export const UpdateTenantSchema = z
  .object({
    name: text({ max: 255 })
      .optional()
      .meta({ description: 'Up to 255 characters; cannot be null or blank.' }),
    language: language
      .nullable()
      .optional()
      .meta({
        description:
          'A BCP 47 tag, stored canonical (`DE-de` → `de-DE`); legacy locale forms are normalised (`de_DE` → ' +
          '`de-DE`, `pt_BR` → `pt-BR`); at most 10 characters; null clears it.',
      }),
    region: countryCode()
      .nullable()
      .optional()
      .meta({ description: 'ISO 3166-1 alpha-2 (any case, stored upper-cased); null clears it.' }),
    timezone: timezone.nullable().optional().meta({
      description:
        'An IANA time zone the service knows (e.g. Europe/Berlin), at most 50 characters; null clears it.',
    }),
    lock_version: lockVersion(),
  })
  .meta({
    id: 'UpdateTenant',
    description: 'JSON Merge Patch of the tenant; language, region and timezone are cleared with null.',
  });
