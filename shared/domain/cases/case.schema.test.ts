import { describe, expect, it } from 'vitest';
import { queryObjectFor } from '../../http/query-input.ts';
import { parseQueryString } from '../../http/query-string.ts';
import { fieldErrorsOf } from '../../http/validation.ts';
import { CaseListQuery, CreateCaseSchema, UpdateCaseSchema } from './case.schema.ts';
import { countryCodes } from './country-code.ts';

type Schema = typeof CreateCaseSchema | typeof UpdateCaseSchema;

function errorsOf(schema: Schema, input: unknown) {
  const result = schema.safeParse(input, { reportInput: true });
  return result.success ? [] : fieldErrorsOf(result.error, 'body').map((e) => [e.pointer, e.type]);
}

function queryOf(query: string) {
  const { input, errors } = queryObjectFor(CaseListQuery, parseQueryString(query));
  const result = CaseListQuery.safeParse(input, { reportInput: true });
  return {
    errors: [
      ...errors.map((e) => e.pointer),
      ...(result.success ? [] : fieldErrorsOf(result.error, 'query').map((e) => e.pointer)),
    ],
    value: result.success ? result.data : undefined,
  };
}

describe('Schema: CreateCase', () => {
  it('defaults status to NEW and priority to NORMAL, upper-cases the country, lower-cases references', () => {
    // Act
    const parsed = CreateCaseSchema.parse({
      title: 'Boiler service',
      area_id: '01936B2E-7C4A-7D21-9F0E-3B5C2A1D4E6F',
      address: { city: 'Berlin', country: 'de' },
      scheduled_start: '2026-03-04T09:00:00+01:00',
    });

    // Assess
    expect(parsed).toMatchObject({
      status: 'NEW',
      priority: 'NORMAL',
      area_id: '01936b2e-7c4a-7d21-9f0e-3b5c2a1d4e6f',
      address: { city: 'Berlin', country: 'DE' },
      scheduled_start: '2026-03-04T08:00:00.000Z',
    });
  });

  it.each([
    { title: 'a missing title', input: { title: undefined }, errors: [['#/title', 'field-required']] },
    { title: 'a blank title', input: { title: '  ' }, errors: [['#/title', 'field-required']] },
    {
      title: 'a title of 256 characters',
      input: { title: 'x'.repeat(256) },
      errors: [['#/title', 'field-invalid']],
    },
    {
      title: 'a description of 10,001 characters',
      input: { description: 'x'.repeat(10_001) },
      errors: [['#/description', 'field-invalid']],
    },
    { title: 'an unknown status', input: { status: 'OPEN' }, errors: [['#/status', 'field-invalid']] },
    {
      title: 'a lower-case priority',
      input: { priority: 'high' },
      errors: [['#/priority', 'field-invalid']],
    },
    { title: 'a null status', input: { status: null }, errors: [['#/status', 'field-required']] },
    {
      title: 'an area id that is no uuid',
      input: { area_id: 'north' },
      errors: [['#/area_id', 'field-invalid']],
    },
    {
      title: 'a date without time',
      input: { scheduled_start: '2026-03-04' },
      errors: [['#/scheduled_start', 'field-invalid']],
    },
    {
      title: 'a country that is no ISO code',
      input: { address: { country: 'EU' } },
      errors: [['#/address/country', 'field-invalid']],
    },
    {
      title: 'a latitude out of range',
      input: { location: { latitude: 90.5, longitude: 0 } },
      errors: [['#/location/latitude', 'field-invalid']],
    },
    {
      title: 'a location without longitude',
      input: { location: { latitude: 52 } },
      errors: [['#/location/longitude', 'field-required']],
    },
    {
      title: 'a coordinate as a string',
      input: { location: { latitude: '52', longitude: 13 } },
      errors: [['#/location/latitude', 'field-type-invalid']],
    },
    {
      title: 'a number as external_id',
      input: { external_id: 4711 },
      errors: [['#/external_id', 'field-type-invalid']],
    },
  ])('reports $title', ({ input, errors }) => {
    expect(errorsOf(CreateCaseSchema, { title: 'Boiler service', ...input })).toEqual(errors);
  });
});

describe('Schema: UpdateCase', () => {
  it('accepts null for every clearable field and keeps it as null (the service clears)', () => {
    // Act
    const parsed = UpdateCaseSchema.parse({
      description: null,
      external_id: null,
      area_id: null,
      assignee_id: null,
      scheduled_start: null,
      scheduled_end: null,
      address: { street: null },
      location: null,
      due_by: null,
    });

    // Assess
    expect(parsed).toEqual({
      description: null,
      external_id: null,
      area_id: null,
      assignee_id: null,
      scheduled_start: null,
      scheduled_end: null,
      address: { street: null },
      location: null,
      due_by: null,
    });
  });

  it.each([
    { title: 'a null title', input: { title: null }, errors: [['#/title', 'field-required']] },
    { title: 'a null priority', input: { priority: null }, errors: [['#/priority', 'field-required']] },
    {
      title: 'a blank external_id',
      input: { external_id: '' },
      errors: [['#/external_id', 'field-required']],
    },
    {
      title: 'a null latitude',
      input: { location: { latitude: null } },
      errors: [['#/location/latitude', 'field-required']],
    },
    {
      title: 'a due_by without a time',
      input: { due_by: '2026-03-04' },
      errors: [['#/due_by', 'field-invalid']],
    },
    {
      title: 'sla_status, which the service keeps',
      input: { sla_status: 'ON_TRACK' },
      errors: [['#/sla_status', 'field-unknown']],
    },
    {
      title: '1.5 as lock_version',
      input: { lock_version: 1.5 },
      errors: [['#/lock_version', 'field-type-invalid']],
    },
  ])('reports $title', ({ input, errors }) => {
    expect(errorsOf(UpdateCaseSchema, input)).toEqual(errors);
  });
});

describe('Schema: CaseListQuery', () => {
  it('takes several statuses as repeated keys and the published sort keys', () => {
    // Act
    const { errors, value } = queryOf(
      'statuses=NEW&statuses=ON_HOLD&sort=priority:desc&sort=scheduled_start',
    );

    // Assess
    expect(errors).toEqual([]);
    expect(value).toMatchObject({
      statuses: ['NEW', 'ON_HOLD'],
      sort: [
        { field: 'priority', direction: 'desc' },
        { field: 'scheduled_start', direction: 'asc' },
      ],
    });
  });

  it.each([
    { query: 'statuses=NEW,DONE', pointer: '#/query/statuses/0' },
    { query: 'statuses=OPEN', pointer: '#/query/statuses/0' },
    { query: 'sort=external_id:asc', pointer: '#/query/sort/0' },
    { query: 'area_id=north', pointer: '#/query/area_id' },
    { query: 'scheduled_from=tomorrow', pointer: '#/query/scheduled_from' },
    { query: 'assignee_id=a&assignee_id=b', pointer: '#/query/assignee_id' },
  ])('rejects $query at $pointer', ({ query, pointer }) => {
    expect(queryOf(query).errors).toEqual([pointer]);
  });
});

describe('Constant: countryCodes', () => {
  it('holds the 249 assigned ISO 3166-1 codes, each a region ICU names', () => {
    // Prepare
    const names = new Intl.DisplayNames(['en'], { type: 'region' });

    // Assess
    expect(new Set(countryCodes).size).toBe(249);
    expect(countryCodes.filter((code) => names.of(code) === code)).toEqual([]);
  });
});
