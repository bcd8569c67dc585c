/**
 * Matches a method and path against the route table, as API Gateway does: literal segments
 * win over placeholders, a known path with another method is a 405 (with Allow), anything
 * else a 404. Used by the local server and by the `$default` route's function on AWS.
 */
import { ProblemError } from '../http/problem.ts';
import { type Route, routes } from './route-table.ts';

interface CompiledPath {
  template: string;
  pattern: RegExp;
  names: string[];
  /** Literal segments count more, so `/devices/current-states` beats `/devices/{device_id}`. */
  specificity: number;
  byMethod: Map<string, Route>;
}

const compiled: CompiledPath[] = (() => {
  const byTemplate = new Map<string, CompiledPath>();
  for (const route of routes) {
    let entry = byTemplate.get(route.path);
    if (!entry) {
      const names: string[] = [];
      const segments = route.path.split('/').filter(Boolean);
      const source = segments
        .map((segment) => {
          const placeholder = /^\{(\w+)\}$/.exec(segment);
          if (placeholder?.[1]) {
            names.push(placeholder[1]);
            return '([^/]+)';
          }
          return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        })
        .join('/');
      entry = {
        template: route.path,
        pattern: new RegExp(`^/${source}/?$`),
        names,
        specificity: segments.filter((s) => !s.startsWith('{')).length * 100 - names.length,
        byMethod: new Map(),
      };
      byTemplate.set(route.path, entry);
    }
    entry.byMethod.set(route.method, route);
  }
  return [...byTemplate.values()].sort((a, b) => b.specificity - a.specificity);
})();

export interface RouteMatch {
  route: Route;
  pathParameters: Record<string, string>;
}

/** The matching route, or the 404/405 problem for the request. */
export function matchRouteOrThrow(method: string, path: string): RouteMatch {
  const candidates = compiled.filter((entry) => entry.pattern.test(path));
  if (candidates.length === 0) throw new ProblemError('not-found', { detail: `No route serves ${path}.` });
  for (const entry of candidates) {
    const route = entry.byMethod.get(method.toUpperCase());
    if (!route) continue;
    const values = entry.pattern.exec(path)?.slice(1) ?? [];
    const pathParameters: Record<string, string> = {};
    entry.names.forEach((name, index) => {
      const raw = values[index] ?? '';
      try {
        pathParameters[name] = decodeURIComponent(raw);
      } catch {
        pathParameters[name] = raw;
      }
    });
    return { route, pathParameters };
  }
  const allow = [...new Set(candidates.flatMap((entry) => [...entry.byMethod.keys()]))].sort().join(', ');
  throw new ProblemError('method-not-allowed', {
    detail: `${method.toUpperCase()} is not allowed here; allowed: ${allow}.`,
    headers: { allow },
  });
}
