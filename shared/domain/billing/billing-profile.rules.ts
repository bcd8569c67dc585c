/**
 * The billing profile's rules that depend on what is stored (the schema checks each field on
 * its own, billing-profile.schema.ts):
 *
 * - null clears billing_full_name only while billing_business_name is present after the patch,
 *   and vice versa: invoicing needs one of the two (422 field-required at the field cleared);
 * - billing_vat_number and billing_country_code are read-only after signup: settable while the
 *   profile has none, then only the stored value is accepted (422 field-invalid); null clears
 *   the VAT number (the country code cannot be null: the schema refuses it);
 * - a cleared field is absent from the stored record and from the representation, never null;
 * - `missing_for_invoicing` names what invoicing still needs.
 */
import type { z } from 'zod';
import type { FieldError } from '../../schema/field-error.ts';
import {
  type BillingProfile,
  invoicingFields,
  nameFields,
  type ProfileField,
  profileFields,
  type UpdateBillingProfileSchema,
} from './billing-profile.schema.ts';

export type ProfileValues = Partial<Record<ProfileField, string>>;

/** The stored profile: its values plus bookkeeping; the item's id is the workspace id. */
export interface StoredProfile extends ProfileValues {
  id: string;
  created_at: string;
  updated_at: string;
  lock_version: number;
}

export type ProfilePatch = Omit<z.output<typeof UpdateBillingProfileSchema>, 'lock_version'>;

const readOnlyFields = ['billing_vat_number', 'billing_country_code'] as const;

/** The profile's values only, in representation order, without bookkeeping or empty keys. */
export function valuesOf(record: ProfileValues | undefined): ProfileValues {
  const values: ProfileValues = {};
  for (const field of profileFields) {
    const value = record?.[field];
    if (typeof value === 'string') values[field] = value;
  }
  return values;
}

/**
 * The values after `patch`, or the field errors the patch earns against `stored` (undefined
 * before the first PATCH). Pure: the caller stores the result.
 */
export function applyProfilePatch(
  stored: ProfileValues | undefined,
  patch: ProfilePatch,
): { values: ProfileValues; errors: FieldError[] } {
  const before = valuesOf(stored);
  const values: ProfileValues = { ...before };
  for (const field of profileFields) {
    const value = (patch as Record<string, string | null | undefined>)[field];
    if (value === undefined) continue;
    if (value === null) delete values[field];
    else values[field] = value;
  }

  const errors: FieldError[] = [];
  for (const [field, other] of [nameFields, [nameFields[1], nameFields[0]] as const]) {
    if ((patch as Record<string, unknown>)[field] === null && values[other] === undefined) {
      errors.push({
        type: 'field-required',
        pointer: `#/${field}`,
        detail: `can be cleared only while ${other} is present (invoicing needs a full name or a business name)`,
      });
    }
  }
  for (const field of readOnlyFields) {
    const sent = (patch as Record<string, unknown>)[field];
    const current = before[field];
    if (typeof sent === 'string' && current !== undefined && sent !== current) {
      errors.push({
        type: 'field-invalid',
        pointer: `#/${field}`,
        detail: `is read-only after signup (stored: ${current}); send the stored value or omit it`,
      });
    }
  }
  return { values, errors };
}

/** What invoicing still needs: both names when neither is present, then the required fields. */
export function missingForInvoicing(values: ProfileValues): ProfileField[] {
  const missing: ProfileField[] = [];
  if (values.billing_full_name === undefined && values.billing_business_name === undefined)
    missing.push(...nameFields);
  for (const field of invoicingFields) if (values[field] === undefined) missing.push(field);
  return missing;
}

/** The representation: the profile as stored, or the empty profile at lock_version 0. */
export function toBillingProfile(stored: StoredProfile | undefined): BillingProfile {
  const values = valuesOf(stored);
  return {
    ...values,
    missing_for_invoicing: missingForInvoicing(values),
    ...(stored ? { created_at: stored.created_at, updated_at: stored.updated_at } : {}),
    lock_version: stored?.lock_version ?? 0,
  };
}

/** Whether the patch changes no value (then the write has nothing new for the provider). */
export function unchanged(stored: ProfileValues | undefined, values: ProfileValues): boolean {
  const before = valuesOf(stored);
  return profileFields.every((field) => before[field] === values[field]);
}
