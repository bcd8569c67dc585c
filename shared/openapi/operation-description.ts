/**
 * An operation's description in the OpenAPI document: the route's own text, then what the route
 * states about itself, written the same way for every operation so none can forget it: who may
 * call it, the sort keys and filters of a list, and the concurrency rule of a write.
 */
import type * as z from 'zod';
import { adminRealm } from '../auth/realm-name.ts';
import type { RouteSpec } from '../http/route-spec.ts';
import { sortKeysOf } from '../schema/query-params.ts';

const paging = new Set(['page', 'size', 'sort']);

function accessOf(route: RouteSpec): string {
  switch (route.auth) {
    case 'none':
      return '**Access:** public; no token needed.';
    case 'device':
      return "**Access:** the device's intake secret as `Authorization: Bearer <intake secret>`; no user token. Any credential failure is 401; a deactivated device is 403 (data.reason resource_locked).";
    case 'admin':
      return `**Access:** a client-credentials token of the admin realm \`${adminRealm}\`; no grant model, so never a 402 or 403.`;
    case 'bearer': {
      const grants = route.grants ?? [];
      const who =
        grants.length > 0
          ? `needs the grant${grants.length > 1 ? 's' : ''} ${grants.map((g) => `\`${g}\``).join(', ')} (403 access-denied, data.reason missing_grant, names what is missing)`
          : 'any authenticated principal of the workspace';
      const state = route.allowInactiveTenant
        ? 'Available while the workspace is deactivated or billing-locked.'
        : 'A deactivated workspace answers 403 tenant-disabled, a billing-locked one 402 tenant-billing-locked.';
      return `**Access:** ${who}. ${state}`;
    }
    default: {
      const exhaustive: never = route.auth;
      return exhaustive;
    }
  }
}

function listingOf(route: RouteSpec): string | undefined {
  if (!route.query) return undefined;
  const names = Object.keys(route.query.shape as Record<string, z.ZodType>);
  const lines: string[] = [];
  const sortKeys = sortKeysOf(route.query);
  if (sortKeys.length > 0) {
    lines.push(
      `**Sort keys:** ${sortKeys.map((k) => `\`${k}\``).join(', ')}; repeat \`sort=<key>:<asc|desc>\` for ties, any comma is 422.`,
    );
  }
  const filters = names.filter((name) => !paging.has(name));
  if (filters.length > 0) {
    lines.push(
      `**Filters:** ${filters.map((f) => `\`${f}\``).join(', ')}; combined with AND, the repeated values of one array filter with OR.`,
    );
  }
  if (names.includes('page')) {
    lines.push(
      '**Paging:** `page` from 0, `size` 1..100 (default 20); `page.total_elements` counts the whole result. ' +
        'One request reads at most a bounded number of index entries (20,000): where counting the total would read more, ' +
        '`total_elements` is an estimate and the response says so with `x-total-elements-estimated: true`; ' +
        'a page that a sparse filter puts beyond that bound is refused with 422 `validation-failed` at `#/query/page` (narrow the filter).',
    );
  }
  return lines.join('\n\n') || undefined;
}

function concurrencyOf(route: RouteSpec): string | undefined {
  const body = (route.body as { shape?: Record<string, unknown> } | undefined)?.shape;
  if (body && 'lock_version' in body) {
    return (
      '**Concurrency:** send the `lock_version` you read to write only over that version (409 ' +
      'resource-conflict when someone wrote in between); omit it or send null for last-write-wins.'
    );
  }
  if (route.method === 'DELETE')
    return '**Concurrency:** unconditional; deleting what is already gone is 404.';
  return undefined;
}

export function operationDescription(route: RouteSpec): string {
  return [route.description, accessOf(route), listingOf(route), concurrencyOf(route)]
    .filter((part): part is string => Boolean(part))
    .join('\n\n');
}
