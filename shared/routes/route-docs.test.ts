/**
 * Every route of the table is born documented: a description of substance, and examples that
 * its own schemas accept, so the published examples are what the service takes and gives.
 */
import { describe, expect, it } from 'vitest';
import { queryObjectFor } from '../http/query-input.ts';
import { parseQueryString } from '../http/query-string.ts';
import type { RouteSpec } from '../http/route-spec.ts';
import { streamRoutes } from './groups/stream.routes.ts';
import { routes } from './route-table.ts';

const table = [...routes, ...streamRoutes] as readonly RouteSpec[];
const published = table.filter((route) => route.published !== false);

function issuesOf(result: { success: boolean; error?: { issues: unknown[] } }): unknown[] {
  return result.success ? [] : (result.error?.issues ?? []);
}

describe('Route table: descriptions and examples', () => {
  it.each(published)('describes $operationId in more than its summary', (route) => {
    expect(route.description.length).toBeGreaterThan(40);
    expect(route.description).not.toBe(route.summary);
  });

  it.each(table.filter((route) => route.body))('accepts the request example of $operationId', (route) => {
    // Prepare
    const example = route.examples.request;

    // Act
    const result = route.body?.safeParse(example);

    // Assess
    expect(example).toBeDefined();
    expect(issuesOf(result ?? { success: false })).toEqual([]);
  });

  it.each(table.filter((route) => route.success.schema))(
    'matches the response example of $operationId to its response schema',
    (route) => {
      // Prepare
      const example = route.examples.response;

      // Act
      const result = route.success.schema?.safeParse(example);

      // Assess
      expect(example).toBeDefined();
      expect(issuesOf(result ?? { success: false })).toEqual([]);
    },
  );

  it.each(table.filter((route) => route.examples.query !== undefined))(
    'accepts the query example of $operationId',
    (route) => {
      // Act
      const { input, errors } = queryObjectFor(route.query, parseQueryString(route.examples.query ?? ''));
      const result = route.query?.safeParse(input);

      // Assess
      expect(errors).toEqual([]);
      expect(issuesOf(result ?? { success: false })).toEqual([]);
    },
  );

  it('gives no example to a route that takes no body or answers none', () => {
    const misplaced = table.filter(
      (route) =>
        (route.examples.request !== undefined && !route.body) ||
        (route.examples.response !== undefined && !route.success.schema) ||
        (route.examples.query !== undefined && !route.query),
    );

    expect(misplaced.map((route) => route.operationId)).toEqual([]);
  });
});
