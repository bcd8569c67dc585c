import { describe, expect, it } from 'vitest';
import { fieldErrorsOf } from '../../http/validation.ts';
import { roleIdOf } from '../roles/role.catalog.ts';
import { CreateUserSchema, UpdateUserSchema } from './user.schema.ts';

const valid = {
  email: 'Mixed.Case@Example.COM',
  firstname: 'Mia',
  lastname: 'Mixed',
  role_ids: [roleIdOf('technician')],
};

function errorsOf(schema: typeof CreateUserSchema | typeof UpdateUserSchema, input: unknown) {
  const result = schema.safeParse(input, { reportInput: true });
  return result.success ? [] : fieldErrorsOf(result.error, 'body').map((e) => [e.pointer, e.type]);
}

describe('Schema: CreateUser', () => {
  it('lower-cases the e-mail and resolves role ids to names', () => {
    expect(CreateUserSchema.parse(valid)).toMatchObject({
      email: 'mixed.case@example.com',
      role_ids: ['technician'],
    });
  });

  it.each([
    {
      title: 'an e-mail without domain',
      input: { email: 'someone@' },
      errors: [['#/email', 'field-invalid']],
    },
    { title: 'a blank firstname', input: { firstname: ' ' }, errors: [['#/firstname', 'field-required']] },
    {
      title: 'the owner role',
      input: { role_ids: [roleIdOf('owner')] },
      errors: [['#/role_ids/0', 'field-invalid']],
    },
    {
      title: 'a repeated tag id',
      input: { tag_ids: [roleIdOf('admin'), roleIdOf('admin')] },
      errors: [['#/tag_ids/1', 'field-invalid']],
    },
    { title: 'a null skill_ids', input: { skill_ids: null }, errors: [['#/skill_ids', 'field-required']] },
  ])('reports $title', ({ input, errors }) => {
    expect(errorsOf(CreateUserSchema, { ...valid, ...input })).toEqual(errors);
  });
});

describe('Schema: UpdateUser', () => {
  it('accepts an empty patch and the owner role (the service decides about owner changes)', () => {
    expect(UpdateUserSchema.parse({})).toEqual({});
    expect(UpdateUserSchema.parse({ role_ids: [roleIdOf('owner')] }).role_ids).toEqual(['owner']);
  });

  it('treats null skill and tag sets as clearing, and null names as missing', () => {
    expect(UpdateUserSchema.parse({ skill_ids: null, tag_ids: null })).toEqual({
      skill_ids: null,
      tag_ids: null,
    });
    expect(errorsOf(UpdateUserSchema, { firstname: null, role_ids: null })).toEqual([
      ['#/firstname', 'field-required'],
      ['#/role_ids', 'field-required'],
    ]);
  });
});
