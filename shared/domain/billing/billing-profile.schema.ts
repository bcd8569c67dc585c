/**
 * Billing: the workspace's billing profile (SPEC.md, "Billing profile"), the payment-provider
 * sessions and the billing status of a recheck. Owners and admins read the profile
 * (billing:read) and change it, open sessions and recheck (billing:update). Published schema
 * names: BillingProfile, UpdateBillingProfile, CreateBillingSession, BillingSession,
 * BillingStatus.
 */
import * as z from 'zod';
import { emailAddress, lockVersion, storedVersion, text } from '../../schema/fields.ts';
import { countryCode, storedCountryCode } from '../cases/country-code.ts';

/** The fields invoicing needs (besides a name: full name or business name). */
export const invoicingFields = [
  'billing_country_code',
  'billing_email',
  'billing_address_line1',
  'billing_city',
  'billing_postal_code',
] as const;

export const nameFields = ['billing_full_name', 'billing_business_name'] as const;

/** Every field of the profile, in the order the representation shows them. */
export const profileFields = [
  'billing_full_name',
  'billing_business_name',
  'billing_vat_number',
  'billing_country_code',
  'billing_email',
  'billing_address_line1',
  'billing_address_line2',
  'billing_city',
  'billing_postal_code',
  'billing_state_province',
] as const;

export type ProfileField = (typeof profileFields)[number];

/** Stripe's limit for customer names, so every name the profile takes reaches the provider. */
export const maxNameLength = 150;

/** A VAT (or other tax) number without its separators: `de 123.456-789` → `DE123456789`. */
export function normalisedVatNumber(value: string): string {
  return value.replace(/[\s.\-/]/g, '').toUpperCase();
}

function vatNumber() {
  return text({ max: 32 })
    .check((ctx) => {
      if (!ctx.value.trim()) return;
      const normalised = normalisedVatNumber(ctx.value);
      if (!/^[A-Z0-9]{4,20}$/.test(normalised) || !/\d/.test(normalised)) {
        ctx.issues.push({
          code: 'custom',
          input: ctx.value,
          message:
            'must be a VAT or tax number: 4 to 20 letters and digits (with a digit) after removing blanks, dots, hyphens and slashes',
        });
      }
    })
    .transform(normalisedVatNumber);
}

const readOnlyAfterSignup =
  'Read-only after signup: it may be set while the profile has none (on the first PATCH, which creates ' +
  'the profile, or later while still unset); afterwards sending another value is 422 field-invalid, ' +
  'while the stored value is accepted.';

export const BillingProfileSchema = z
  .object({
    billing_full_name: z.string().optional().meta({ description: 'Name of the person billed.' }),
    billing_business_name: z.string().optional().meta({ description: 'Name of the business billed.' }),
    billing_vat_number: z.string().optional().meta({
      description: 'VAT or tax number, upper-cased without blanks, dots, hyphens or slashes.',
    }),
    billing_country_code: storedCountryCode().optional(),
    billing_email: z.string().optional().meta({ description: 'Receives the PDF invoices; lower-cased.' }),
    billing_address_line1: z.string().optional(),
    billing_address_line2: z.string().optional(),
    billing_city: z.string().optional(),
    billing_postal_code: z.string().optional(),
    billing_state_province: z.string().optional(),
    missing_for_invoicing: z.array(z.enum(profileFields)).meta({
      description:
        'Read only: the fields invoicing still needs, in this order. When neither name is present both ' +
        'billing_full_name and billing_business_name are listed: one of them is enough. Empty once the ' +
        'profile is complete.',
    }),
    created_at: z.iso.datetime().optional().meta({
      description: 'When the first PATCH created the profile; omitted before.',
    }),
    updated_at: z.iso.datetime().optional().meta({ description: 'When the profile last changed.' }),
    lock_version: storedVersion().meta({
      description: '0 before the first PATCH; the first PATCH creates the profile at 1, every change adds 1.',
    }),
  })
  .meta({
    id: 'BillingProfile',
    description:
      'Who the workspace is billed to. A field without a value (never set, or cleared with null) is absent, never null.',
  });

export type BillingProfile = z.infer<typeof BillingProfileSchema>;

const name = () => text({ max: maxNameLength });
const line = () => text({ max: 255 });

export const UpdateBillingProfileSchema = z
  .object({
    billing_full_name: name()
      .nullable()
      .optional()
      .meta({
        description: `Up to ${maxNameLength} characters. null clears it only while billing_business_name is present (stored, or sent in the same PATCH); otherwise 422 field-required.`,
      }),
    billing_business_name: name()
      .nullable()
      .optional()
      .meta({
        description: `Up to ${maxNameLength} characters. null clears it only while billing_full_name is present (stored, or sent in the same PATCH); otherwise 422 field-required.`,
      }),
    billing_vat_number: vatNumber()
      .nullable()
      .optional()
      .meta({
        description: `Stored upper-cased without blanks, dots, hyphens or slashes (the comparison below uses that form). ${readOnlyAfterSignup} null clears it (and makes it settable again).`,
      }),
    billing_country_code: countryCode()
      .optional()
      .meta({
        description: `ISO 3166-1 alpha-2 (any letter case, stored upper-cased). Required for invoicing: null is 422 field-required. ${readOnlyAfterSignup}`,
      }),
    billing_email: emailAddress().optional().meta({
      description: 'Receives the PDF invoices. Required for invoicing: null is 422 field-required.',
    }),
    billing_address_line1: line()
      .optional()
      .meta({ description: 'Required for invoicing: null is 422 field-required.' }),
    billing_address_line2: line().nullable().optional().meta({ description: 'null clears it.' }),
    billing_city: line()
      .optional()
      .meta({ description: 'Required for invoicing: null is 422 field-required.' }),
    billing_postal_code: text({ max: 20 })
      .optional()
      .meta({ description: 'Required for invoicing: null is 422 field-required.' }),
    billing_state_province: line().nullable().optional().meta({ description: 'null clears it.' }),
    lock_version: lockVersion().meta({
      description:
        'Checked when sent and a profile exists (409 resource-conflict on a mismatch); omitted or null: ' +
        'last write wins. Ignored by the first PATCH, which creates the profile.',
    }),
  })
  .meta({
    id: 'UpdateBillingProfile',
    description:
      'JSON Merge Patch of the billing profile: only the fields sent are checked and changed. Blank strings ' +
      'are 422 field-required. Read-only fields of the representation (missing_for_invoicing, created_at, ' +
      'updated_at) and unknown keys are ignored.',
  });

export const CreateBillingSessionSchema = z
  .object({
    return_url: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .optional()
      .meta({
        description:
          'Where the portal sends the user back (an absolute http or https URL). Default: the API base URL.',
      }),
  })
  .meta({ id: 'CreateBillingSession', description: 'Optional; an empty body or none at all is fine.' });

export const BillingSessionSchema = z
  .object({
    url: z.url().meta({
      description:
        "The payment provider's page for this workspace: open it in the user's browser. It is a secret: " +
        'whoever has it can act in the portal until it expires.',
    }),
    expires_at: z.iso.datetime().meta({
      description: 'The URL opens the portal until then (five minutes); ask for a new one afterwards.',
    }),
  })
  .meta({ id: 'BillingSession', description: 'A short-lived, single-use link into the payment provider.' });

export const billingStandings = ['GOOD_STANDING', 'PAST_DUE', 'NO_ACCOUNT'] as const;

export const BillingStatusSchema = z
  .object({
    status: z.enum(billingStandings).meta({
      description:
        "The provider's answer: GOOD_STANDING (nothing overdue: the billing lock is lifted), PAST_DUE (a " +
        'payment failed or an invoice is overdue: the workspace is billing-locked), NO_ACCOUNT (the ' +
        'provider has no customer for this workspace yet, since no portal or payment-method session was ' +
        'ever opened: the lock is left as it was).',
    }),
    is_billing_locked: z.boolean().meta({ description: 'Whether the workspace is billing-locked now.' }),
    workspace_status: z.enum(['ACTIVE', 'INACTIVE', 'BILLING_LOCKED']).meta({
      description:
        'The workspace state now: INACTIVE while deactivated (a recheck never activates), else ' +
        'BILLING_LOCKED while billing-locked, else ACTIVE.',
    }),
    has_payment_method: z
      .boolean()
      .optional()
      .meta({ description: 'Whether the provider holds a payment method; omitted with NO_ACCOUNT.' }),
    checked_at: z.iso.datetime().meta({ description: 'When the provider was asked.' }),
  })
  .meta({ id: 'BillingStatus', description: 'What a billing recheck found and what it did.' });

export type BillingStatus = z.infer<typeof BillingStatusSchema>;
