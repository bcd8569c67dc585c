/**
 * The document's `info`: what the API is, the conventions every operation shares, and who
 * answers for it. `apiVersion` is the contract's semantic version within `/api/v2`: the minor
 * grows when operations or fields are added (never removed: SPEC.md, Versioning), the patch
 * when only the description changes.
 */
import { config } from '../config.ts';
import { problemTypes } from '../http/problem-types.ts';

export const apiVersion = '2.1.0';

export function apiInfo() {
  const { baseUrl, problemsBaseUrl } = config();
  return {
    title: 'Field Service Management API',
    version: apiVersion,
    summary: 'Multi-tenant field-service management: people, skills, areas, tags and their history.',
    description: [
      'The REST API of the field-service platform. Every request acts in the workspace of its token.',
      '',
      '- **Errors** are RFC 9457 problem documents (`application/problem+json`); the `type` URI, relative to ' +
        `${problemsBaseUrl}, and the status are the contract: ${Object.keys(problemTypes).join(', ')}. ` +
        'Each type URI resolves to a page that says what to do.',
      '- **Lists** are `{ items, page }`; `page` from 0 (default 0), `size` 1..100 (default 20); values out of ' +
        'range or not integers are 422.',
      '- **Sorting** is repeated `sort=<field>:<asc|desc>`; any comma in `sort` is 422. Array parameters are ' +
        'repeated plural keys (`role_ids=…&role_ids=…`); a literal comma in a value is 422.',
      '- **PATCH** is JSON Merge Patch (`application/merge-patch+json`, `application/json` accepted as an alias): ' +
        'omitted fields stay, null clears a clearable field, a blank string is 422 field-required.',
      '- **lock_version**: equal writes and increments, different is 409, omitted or null is last-write-wins.',
      '- **Creates** answer 201 with the resource and an absolute `Location`.',
      '- **Absent values** are omitted, never null; timestamps are RFC 3339 in UTC.',
      '- **Limits:** request line 8 KiB (414), headers 16 KiB (431), body 1 MiB (413).',
      '- **Correlation:** every answer carries `request-id` and `correlation-id` (yours when you send one).',
      '- **Admin control plane** (`/admin-v1`, security adminBearer): tokens of the reserved realm fsm-admin; no ' +
        'grant model, so never a 402 or 403.',
    ].join('\n'),
    contact: {
      name: 'Field service platform team',
      url: `${baseUrl}/api/v2/docs`,
      email: 'api@fsm.example',
    },
    license: { name: 'Proprietary: use under your service agreement', url: `${baseUrl}/api/v2/docs` },
    // Zalando guidelines 215 and 219: a stable id of this API and who it is for.
    'x-api-id': 'field-service-management-api',
    'x-audience': 'external-partner',
  };
}
