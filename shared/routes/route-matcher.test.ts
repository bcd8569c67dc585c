/**
 * How the local server and the `$default` function find the operation for a request, as API
 * Gateway does: path parameters decoded, a trailing slash tolerated, 404 for an unknown path
 * and 405 with `allow` for a known path with another method.
 */
import { describe, expect, it } from 'vitest';
import { problemOf } from '../../test/support/problem-of.ts';
import { matchRouteOrThrow } from './route-matcher.ts';
import { routes } from './route-table.ts';

const areaId = '0190b6a2-7c1e-7a3b-9f00-1234567890ab';

describe('Function: matchRouteOrThrow', () => {
  it.each([
    {
      title: 'matches a literal path',
      method: 'GET',
      path: '/health',
      operationId: 'platform.health',
      params: {},
    },
    {
      title: 'matches a collection',
      method: 'POST',
      path: '/api/v2/areas',
      operationId: 'areas.create',
      params: {},
    },
    {
      title: 'matches a path with a parameter',
      method: 'PATCH',
      path: `/api/v2/areas/${areaId}`,
      operationId: 'areas.update',
      params: { area_id: areaId },
    },
    {
      title: 'matches whatever the case of the method',
      method: 'get',
      path: `/api/v2/tags/${areaId}`,
      operationId: 'tags.get',
      params: { tag_id: areaId },
    },
    {
      title: 'tolerates a trailing slash on a collection',
      method: 'GET',
      path: '/api/v2/areas/',
      operationId: 'areas.list',
      params: {},
    },
    {
      title: 'tolerates a trailing slash after a parameter',
      method: 'DELETE',
      path: `/api/v2/areas/${areaId}/`,
      operationId: 'areas.delete',
      params: { area_id: areaId },
    },
    {
      title: 'decodes a percent-encoded path parameter',
      method: 'GET',
      path: '/api/v2/areas/north%20%2F%20east',
      operationId: 'areas.get',
      params: { area_id: 'north / east' },
    },
    {
      title: 'keeps a malformed escape in a path parameter verbatim',
      method: 'GET',
      path: '/api/v2/areas/100%',
      operationId: 'areas.get',
      params: { area_id: '100%' },
    },
  ])('$title', ({ method, path, operationId, params }) => {
    // Act
    const match = matchRouteOrThrow(method, path);

    // Assess
    expect(match.route.operationId).toBe(operationId);
    expect(match.pathParameters).toEqual(params);
  });

  it.each([
    { title: 'answers 404 for an unknown path', path: '/api/v2/nothing-here' },
    { title: 'answers 404 for a path one segment too deep', path: `/api/v2/areas/${areaId}/more` },
    { title: 'answers 404 for an empty parameter', path: '/api/v2/areas//' },
    { title: 'answers 404 for a prefix of a known path', path: '/api/v2' },
    { title: 'answers 404 for a known path with a suffix', path: '/healthz' },
  ])('$title', ({ path }) => {
    // Act
    const problem = problemOf(() => matchRouteOrThrow('GET', path));

    // Assess
    expect(problem.type).toBe('not-found');
    expect(problem.status).toBe(404);
  });

  it('answers 405 with an allow header listing the methods of a known path', () => {
    // Prepare
    const expected = routes
      .filter((route) => route.path === '/api/v2/areas/{area_id}')
      .map((route) => route.method)
      .sort();

    // Act
    const problem = problemOf(() => matchRouteOrThrow('PUT', `/api/v2/areas/${areaId}`));

    // Assess
    expect(problem.type).toBe('method-not-allowed');
    expect(problem.status).toBe(405);
    expect(problem.init.headers?.allow?.split(', ')).toEqual(expected);
    expect(expected).toEqual(expect.arrayContaining(['DELETE', 'GET', 'PATCH']));
  });

  it('answers 405 for a method the collection does not serve', () => {
    // Act
    const problem = problemOf(() => matchRouteOrThrow('DELETE', '/api/v2/areas'));

    // Assess
    expect(problem.type).toBe('method-not-allowed');
    expect(problem.init.headers?.allow?.split(', ')).toEqual(expect.arrayContaining(['GET', 'POST']));
    expect(problem.init.headers?.allow).not.toContain('DELETE');
  });
});
