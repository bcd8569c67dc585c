import { beforeAll, describe, expect, it } from 'vitest';
import { call, tokenFor } from '../support/api.ts';

let token: string;

beforeAll(async () => {
  token = await tokenFor('acme-admin');
});

const areaId = '0190b6a2-7c1e-7a3b-9f00-1234567890ab';

describe('Malformed input never causes a 5xx', () => {
  it.each([
    { title: 'a bad escape in the path', method: 'GET', path: '/api/v2/areas/%ZZ' },
    { title: 'a bad escape in the query', method: 'GET', path: '/api/v2/areas?page=%ZZ' },
    { title: 'an empty sort', method: 'GET', path: '/api/v2/areas?sort=' },
    { title: 'a sort without direction value', method: 'GET', path: '/api/v2/areas?sort=name:' },
    { title: 'a huge page number', method: 'GET', path: '/api/v2/areas?page=99999999999999999999999' },
    { title: 'a key without value', method: 'GET', path: '/api/v2/areas?page' },
    { title: 'a JSON null body', method: 'POST', path: '/api/v2/areas', raw: 'null' },
    { title: 'a JSON string body', method: 'POST', path: '/api/v2/areas', raw: '"area"' },
    { title: 'a JSON array body', method: 'POST', path: '/api/v2/areas', raw: '[{"name":"x"}]' },
    {
      title: 'a number too large for JSON',
      method: 'POST',
      path: '/api/v2/areas',
      raw: '{"name":"x","color":1e400}',
    },
    {
      title: 'a deeply nested body',
      method: 'POST',
      path: '/api/v2/areas',
      raw: `${'['.repeat(5000)}${']'.repeat(5000)}`,
    },
    {
      title: '__proto__ in a patch',
      method: 'PATCH',
      path: `/api/v2/areas/${areaId}`,
      raw: '{"__proto__":{"x":1}}',
    },
    { title: 'a truncated body', method: 'PATCH', path: `/api/v2/areas/${areaId}`, raw: '{"name": "x' },
    {
      title: 'lock_version beyond safe integers',
      method: 'PATCH',
      path: `/api/v2/areas/${areaId}`,
      raw: '{"lock_version": 9007199254740993}',
    },
    { title: 'a body on a DELETE', method: 'DELETE', path: `/api/v2/areas/${areaId}`, raw: '{oops' },
    {
      title: 'control characters in a name (422)',
      method: 'POST',
      path: '/api/v2/areas',
      raw: '{"name":"\\u0000\\u0007","color":"#000"}',
    },
  ])('answers $title with a 4xx problem document', async ({ method, path, raw }) => {
    const response = await call(method, path, { token, ...(raw !== undefined ? { raw } : {}) });

    expect(response.status).toBeGreaterThanOrEqual(200);
    expect(response.status).toBeLessThan(500);
    if (response.status >= 400) {
      expect(response.headers.get('content-type')).toContain('application/problem+json');
      expect(response.body.status).toBe(response.status);
    }
  });
});
