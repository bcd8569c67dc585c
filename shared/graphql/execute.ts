/**
 * One GraphQL-over-HTTP request (POST /api/v2/graphql) from its body to its answer:
 * schema of the workspace → parse → validate → limits (limits.ts) → execute.
 *
 * Status and media type (GraphQL over HTTP):
 * - the answer is `application/graphql-response+json` when the Accept header prefers it, else
 *   `application/json` (also without an Accept header, or for `*` / `application/*`);
 * - `application/json`: 200 for every GraphQL request, its errors in `errors`;
 * - `application/graphql-response+json`: 400 when the request fails before execution (a parse or
 *   validation error, a limit, an unknown operationName, variables that do not fit), 200 once it
 *   executes, even when fields fail.
 * Every error carries `extensions.code`: GRAPHQL_PARSE_FAILED, GRAPHQL_VALIDATION_FAILED,
 * OPERATION_RESOLUTION_FAILURE, DEPTH_LIMIT_EXCEEDED, COMPLEXITY_LIMIT_EXCEEDED, BAD_USER_INPUT,
 * RESULT_TOO_LARGE, SERVICE_UNAVAILABLE or INTERNAL_SERVER_ERROR (whose message hides the cause;
 * the request id in the response headers finds it in the logs). Identical errors of many rows
 * are reported once.
 */
import {
  type DocumentNode,
  execute,
  type FragmentDefinitionNode,
  GraphQLError,
  type GraphQLFormattedError,
  getOperationAST,
  Kind,
  parse,
  specifiedRules,
  validate,
} from 'graphql';
import type { Actor } from '../auth/actor.ts';
import { DomainError } from '../domain/domain-error.ts';
import { logger } from '../observability/logger.ts';
import { contextFor } from './context.ts';
import { graphqlExtensionsOf } from './domain-errors.ts';
import { limitErrors } from './limits.ts';
import { workspaceSchema } from './schema-cache.ts';

export interface GraphQLRequest {
  query: string;
  variables?: Record<string, unknown> | null | undefined;
  operationName?: string | null | undefined;
}

export interface GraphQLHttpAnswer {
  status: 200 | 400;
  contentType: string;
  body: string;
}

export const graphqlResponseType = 'application/graphql-response+json';

/** The response media type an Accept header asks for (q-values honoured; ties: the order given). */
export function responseMediaType(accept: string | undefined): string {
  if (!accept) return 'application/json';
  let best: { type: string; q: number } | undefined;
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const qParam = params.find((param) => param.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!(q > 0)) continue;
    const type =
      range === graphqlResponseType
        ? graphqlResponseType
        : ['application/json', 'application/*', '*/*'].includes(range)
          ? 'application/json'
          : undefined;
    if (type && (!best || q > best.q)) best = { type, q };
  }
  return best?.type ?? 'application/json';
}

function coded(error: GraphQLError, code: string): GraphQLError {
  return new GraphQLError(error.message, {
    ...(error.nodes ? { nodes: error.nodes } : {}),
    ...(error.source ? { source: error.source } : {}),
    ...(error.positions ? { positions: error.positions } : {}),
    ...(error.path ? { path: error.path } : {}),
    extensions: { ...error.extensions, code },
  });
}

/** An execution error as the client sees it: its own message when it is meant for them, else none. */
function published(error: GraphQLError, requestId: string): GraphQLFormattedError {
  const original = error.originalError;
  if (error.extensions?.code) return error.toJSON();
  if (original instanceof GraphQLError && original.extensions?.code) {
    return { ...error.toJSON(), extensions: { ...original.extensions } };
  }
  // GraphQL's own execution errors (a non-null field without a value) name no internals.
  if (!original) return { ...error.toJSON(), extensions: { code: 'INTERNAL_SERVER_ERROR' } };
  // The domain's own errors, a store outage among them (SERVICE_UNAVAILABLE).
  if (original instanceof DomainError && original.code !== 'failed') {
    return { ...error.toJSON(), extensions: graphqlExtensionsOf(original) };
  }
  logger.error('graphql resolver failed', {
    requestId,
    path: error.path?.join('.'),
    error: original.message,
    stack: original.stack,
  });
  return {
    ...error.toJSON(),
    message: 'Internal server error',
    extensions: { code: 'INTERNAL_SERVER_ERROR' },
  };
}

function distinct(errors: GraphQLFormattedError[]): GraphQLFormattedError[] {
  const seen = new Set<string>();
  return errors.filter((error) => {
    const key = `${String(error.extensions?.code)}\u0000${error.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function answer(mediaType: string, status: 200 | 400, body: Record<string, unknown>): GraphQLHttpAnswer {
  return {
    status: mediaType === graphqlResponseType ? status : 200,
    contentType: `${mediaType}; charset=utf-8`,
    body: JSON.stringify(body),
  };
}

/** Errors before execution: 400 with graphql-response+json, 200 with application/json. */
function refused(mediaType: string, errors: readonly GraphQLError[], code: string): GraphQLHttpAnswer {
  return answer(mediaType, 400, {
    errors: errors.map((error) => (error.extensions?.code ? error.toJSON() : coded(error, code).toJSON())),
  });
}

export async function runGraphQL(
  ctx: Actor,
  request: GraphQLRequest,
  accept: string | undefined,
): Promise<GraphQLHttpAnswer> {
  const mediaType = responseMediaType(accept);
  const { model, compiled } = await workspaceSchema(ctx.workspaceId);

  let document: DocumentNode;
  try {
    document = parse(request.query);
  } catch (error) {
    if (error instanceof GraphQLError) return refused(mediaType, [error], 'GRAPHQL_PARSE_FAILED');
    throw error;
  }
  const invalid = validate(compiled.schema, document, specifiedRules);
  if (invalid.length > 0) return refused(mediaType, invalid, 'GRAPHQL_VALIDATION_FAILED');

  const operation = getOperationAST(document, request.operationName ?? undefined);
  if (!operation) {
    const message = request.operationName
      ? `The document has no operation named ${request.operationName}.`
      : 'The document holds several operations: name the one to run in operationName.';
    return refused(mediaType, [new GraphQLError(message)], 'OPERATION_RESOLUTION_FAILURE');
  }
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const limits = limitErrors({
    schema: compiled.schema,
    operation,
    fragments,
    variables: request.variables ?? {},
    isConnection: (name) => compiled.connectionTypes.has(name),
    isNode: (name) => compiled.nodeTypes.has(name),
  });
  if (limits.length > 0) return refused(mediaType, limits, 'GRAPHQL_VALIDATION_FAILED');

  const result = await execute({
    schema: compiled.schema,
    document,
    variableValues: request.variables ?? {},
    ...(request.operationName ? { operationName: request.operationName } : {}),
    contextValue: contextFor(ctx, model, compiled),
  });
  if (!('data' in result) || result.data === undefined) {
    // Nothing executed: the variables did not fit the operation.
    return refused(mediaType, result.errors ?? [], 'BAD_USER_INPUT');
  }
  const errors = result.errors?.length
    ? distinct(result.errors.map((error) => published(error, ctx.requestId)))
    : undefined;
  return answer(mediaType, 200, { ...(errors ? { errors } : {}), data: result.data });
}
