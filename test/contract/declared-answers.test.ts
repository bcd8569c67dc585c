/**
 * The OpenAPI document says what the service does: every status an operation answered during
 * the integration tests is declared for it, and every header the document declares required for
 * a status was sent each time that status was answered. Runs after the integration project
 * (vitest.config.ts), from the answers its requests recorded (test/support/observed-answers.ts).
 */
import { describe, expect, it } from 'vitest';
import type { RouteSpec } from '../../shared/http/route-spec.ts';
import { openApiDocument } from '../../shared/openapi/openapi-document.ts';
import { eventStreamPath, streamRoutes } from '../../shared/routes/groups/stream.routes.ts';
import { matchRouteOrThrow } from '../../shared/routes/route-matcher.ts';
import { type ObservedAnswer, readObservedAnswers } from '../support/observed-answers.ts';

interface Response {
  $ref?: string;
  headers?: Record<string, { required?: boolean }>;
}

const doc = openApiDocument() as {
  paths: Record<string, Record<string, { operationId: string; responses: Record<string, Response> }>>;
  components: { responses: Record<string, Response> };
};

function routeOf(answer: ObservedAnswer): RouteSpec | undefined {
  if (answer.path === eventStreamPath) return streamRoutes[0] as RouteSpec;
  try {
    return matchRouteOrThrow(answer.method, answer.path).route as RouteSpec;
  } catch {
    return undefined; // an unknown path or method: no operation to hold to its declaration
  }
}

function declared(route: RouteSpec): Record<string, Response> | undefined {
  const responses = doc.paths[route.path]?.[route.method.toLowerCase()]?.responses;
  if (!responses) return undefined;
  return Object.fromEntries(
    Object.entries(responses).map(([status, response]) => [
      status,
      response.$ref ? (doc.components.responses[response.$ref.split('/').pop() ?? ''] ?? response) : response,
    ]),
  );
}

const answers = readObservedAnswers();

describe('The OpenAPI document against the answers the integration tests observed', () => {
  it('has answers to compare (the integration project ran first)', () => {
    expect(answers.length, 'run the integration project before the contract project').toBeGreaterThan(1_000);
  });

  it('declares every status each operation answered', () => {
    // Arrange
    const undeclared = new Set<string>();

    // Act
    for (const answer of answers) {
      const route = routeOf(answer);
      if (!route || route.published === false) continue;
      const responses = declared(route);
      if (!responses?.[String(answer.status)])
        undeclared.add(`${route.operationId} answered ${answer.status}`);
    }

    // Assess
    expect([...undeclared].sort()).toEqual([]);
  });

  it('sends every header declared required for the status it answered', () => {
    // Arrange
    const missing = new Set<string>();

    // Act
    for (const answer of answers) {
      const route = routeOf(answer);
      if (!route || route.published === false) continue;
      const response = declared(route)?.[String(answer.status)];
      for (const [name, header] of Object.entries(response?.headers ?? {})) {
        if (header.required && !answer.headers.includes(name.toLowerCase())) {
          missing.add(`${route.operationId} ${answer.status} without ${name}`);
        }
      }
    }

    // Assess
    expect([...missing].sort()).toEqual([]);
  });

  it('never answered 500', () => {
    const failures = answers.filter((answer) => answer.status === 500).map((a) => `${a.method} ${a.path}`);

    expect(failures).toEqual([]);
  });
});
