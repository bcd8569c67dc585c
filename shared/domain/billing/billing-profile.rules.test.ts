/**
 * The billing profile's rules (SPEC.md "Billing profile"), field by field: what null clears and
 * what it may not, the name-or-business-name rule, the fields read-only after signup, and what a
 * representation leaves out.
 */
import { describe, expect, it } from 'vitest';
import {
  applyProfilePatch,
  missingForInvoicing,
  type ProfilePatch,
  type ProfileValues,
  toBillingProfile,
  unchanged,
} from './billing-profile.rules.ts';
import { UpdateBillingProfileSchema } from './billing-profile.schema.ts';

const complete: ProfileValues = {
  billing_full_name: 'Olga Owner',
  billing_business_name: 'Acme GmbH',
  billing_vat_number: 'DE123456789',
  billing_country_code: 'DE',
  billing_email: 'invoices@acme.example',
  billing_address_line1: 'Main St 1',
  billing_address_line2: 'Back building',
  billing_city: 'Berlin',
  billing_postal_code: '10117',
  billing_state_province: 'Berlin',
};

/** The body as the kernel hands it over: parsed by the route's schema. */
const parsed = (body: Record<string, unknown>) => {
  const result = UpdateBillingProfileSchema.safeParse(body);
  if (!result.success) throw new Error(JSON.stringify(result.error.issues));
  const { lock_version: _version, ...patch } = result.data;
  return patch as ProfilePatch;
};

const pointersOf = (body: Record<string, unknown>) =>
  (UpdateBillingProfileSchema.safeParse(body).error?.issues ?? []).map((issue) => ({
    pointer: `#/${issue.path.join('/')}`,
    code: issue.code,
  }));

describe('Billing profile: schema', () => {
  it.each([
    'billing_country_code',
    'billing_email',
    'billing_address_line1',
    'billing_city',
    'billing_postal_code',
  ])('refuses null on %s, which invoicing needs', (field) => {
    expect(pointersOf({ [field]: null })).toEqual([{ pointer: `#/${field}`, code: 'invalid_type' }]);
  });

  it.each([
    'billing_full_name',
    'billing_business_name',
    'billing_vat_number',
    'billing_address_line2',
    'billing_state_province',
  ])('accepts null on %s', (field) => {
    expect(pointersOf({ [field]: null })).toEqual([]);
  });

  it.each(['billing_full_name', 'billing_email', 'billing_city', 'billing_vat_number'])(
    'refuses a blank %s',
    (field) => {
      expect(pointersOf({ [field]: '   ' })).toEqual([{ pointer: `#/${field}`, code: 'custom' }]);
    },
  );

  it.each([
    { title: 'a country code that is no country', body: { billing_country_code: 'XX' } },
    { title: 'a three-letter country code', body: { billing_country_code: 'DEU' } },
    { title: 'an e-mail without a domain', body: { billing_email: 'invoices@' } },
    { title: 'a VAT number without a digit', body: { billing_vat_number: 'DEABCDEF' } },
    { title: 'a name over 150 characters', body: { billing_business_name: 'x'.repeat(151) } },
  ])('refuses $title', ({ body }) => {
    expect(pointersOf(body)).toHaveLength(1);
  });

  it('upper-cases the country code, lower-cases the e-mail and compacts the VAT number', () => {
    expect(
      parsed({
        billing_country_code: 'de',
        billing_email: 'Invoices@Acme.Example',
        billing_vat_number: 'de 123.456-789',
      }),
    ).toEqual({
      billing_country_code: 'DE',
      billing_email: 'invoices@acme.example',
      billing_vat_number: 'DE123456789',
    });
  });
});

describe('Billing profile: rules against the stored profile', () => {
  describe('successful patches', () => {
    it.each([
      {
        title: 'null clears the full name while a business name is stored',
        stored: complete,
        body: { billing_full_name: null },
        expect: { billing_full_name: undefined, billing_business_name: 'Acme GmbH' },
      },
      {
        title: 'null clears the business name while a full name is sent in the same patch',
        stored: { ...complete, billing_full_name: undefined },
        body: { billing_business_name: null, billing_full_name: 'Olga Owner' },
        expect: { billing_full_name: 'Olga Owner', billing_business_name: undefined },
      },
      {
        title: 'null clears the VAT number, line 2 and the state',
        stored: complete,
        body: { billing_vat_number: null, billing_address_line2: null, billing_state_province: null },
        expect: {
          billing_vat_number: undefined,
          billing_address_line2: undefined,
          billing_state_province: undefined,
        },
      },
      {
        title: 'the first patch sets the VAT number and the country code',
        stored: undefined,
        body: { billing_vat_number: 'ATU12345678', billing_country_code: 'at' },
        expect: { billing_vat_number: 'ATU12345678', billing_country_code: 'AT' },
      },
      {
        title: 'a VAT number is settable later while none is stored',
        stored: { ...complete, billing_vat_number: undefined },
        body: { billing_vat_number: 'DE999999999' },
        expect: { billing_vat_number: 'DE999999999' },
      },
      {
        title: 'the stored country code passes in any letter case',
        stored: complete,
        body: { billing_country_code: 'de' },
        expect: { billing_country_code: 'DE' },
      },
      {
        title: 'the stored VAT number passes, written with separators',
        stored: complete,
        body: { billing_vat_number: 'de-123 456 789' },
        expect: { billing_vat_number: 'DE123456789' },
      },
    ])('$title', ({ stored, body, expect: expected }) => {
      // Act
      const { values, errors } = applyProfilePatch(stored as ProfileValues | undefined, parsed(body));

      // Assess
      expect(errors).toEqual([]);
      for (const [field, value] of Object.entries(expected)) {
        expect(values[field as keyof ProfileValues]).toBe(value);
        if (value === undefined) expect(Object.keys(values)).not.toContain(field);
      }
    });
  });

  describe('refused patches', () => {
    it.each([
      {
        title: 'null on the full name without a business name',
        stored: { ...complete, billing_business_name: undefined },
        body: { billing_full_name: null },
        errors: [{ type: 'field-required', pointer: '#/billing_full_name' }],
      },
      {
        title: 'null on the business name before any profile exists',
        stored: undefined,
        body: { billing_business_name: null },
        errors: [{ type: 'field-required', pointer: '#/billing_business_name' }],
      },
      {
        title: 'null on both names at once',
        stored: complete,
        body: { billing_full_name: null, billing_business_name: null },
        errors: [
          { type: 'field-required', pointer: '#/billing_full_name' },
          { type: 'field-required', pointer: '#/billing_business_name' },
        ],
      },
      {
        title: 'another VAT number once one is stored',
        stored: complete,
        body: { billing_vat_number: 'DE111111111' },
        errors: [{ type: 'field-invalid', pointer: '#/billing_vat_number' }],
      },
      {
        title: 'another country code once one is stored, with another VAT number',
        stored: complete,
        body: { billing_country_code: 'AT', billing_vat_number: 'ATU12345678' },
        errors: [
          { type: 'field-invalid', pointer: '#/billing_vat_number' },
          { type: 'field-invalid', pointer: '#/billing_country_code' },
        ],
      },
    ])('$title', ({ stored, body, errors }) => {
      const result = applyProfilePatch(stored as ProfileValues | undefined, parsed(body));

      expect(result.errors).toEqual(errors.map((error) => expect.objectContaining(error)));
    });
  });
});

describe('Billing profile: representation', () => {
  it('is the empty profile at lock_version 0 before the first PATCH', () => {
    expect(toBillingProfile(undefined)).toEqual({
      missing_for_invoicing: [
        'billing_full_name',
        'billing_business_name',
        'billing_country_code',
        'billing_email',
        'billing_address_line1',
        'billing_city',
        'billing_postal_code',
      ],
      lock_version: 0,
    });
  });

  it('leaves cleared fields out instead of answering null', () => {
    const profile = toBillingProfile({
      ...complete,
      billing_vat_number: undefined,
      id: 'ws-1',
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-02T00:00:00.000Z',
      lock_version: 4,
    });

    expect(Object.keys(profile)).not.toContain('billing_vat_number');
    expect(Object.values(profile)).not.toContain(null);
    expect(profile).toMatchObject({ lock_version: 4, missing_for_invoicing: [] });
  });

  it.each([
    { title: 'one name is enough', values: { ...complete, billing_full_name: undefined }, missing: [] },
    {
      title: 'a missing city and postal code are named',
      values: { ...complete, billing_city: undefined, billing_postal_code: undefined },
      missing: ['billing_city', 'billing_postal_code'],
    },
  ])('missing_for_invoicing: $title', ({ values, missing }) => {
    expect(missingForInvoicing(values as ProfileValues)).toEqual(missing);
  });

  it('sees a patch that sends the stored values as no change', () => {
    expect(unchanged(complete, applyProfilePatch(complete, parsed({ billing_city: 'Berlin' })).values)).toBe(
      true,
    );
    expect(unchanged(complete, applyProfilePatch(complete, parsed({ billing_city: 'Bonn' })).values)).toBe(
      false,
    );
  });
});
