/**
 * What an operation returns, and how it becomes an API Gateway result.
 */

import { stringifyWithoutNulls } from '../json/without-nulls.ts';
import type { ApiResult } from './api-gateway.ts';
import { type ProblemError, toProblemDocument } from './problem.ts';

export interface OperationResult {
  /** Defaults to the route's success status. */
  status?: number;
  body?: unknown;
  /** Path (e.g. `/api/v2/areas/<id>`) of the created resource; made absolute from the base URL. */
  location?: string;
  headers?: Record<string, string>;
  /** Defaults to application/json. */
  contentType?: string;
}

export function jsonResult(status: number, body: unknown, headers: Record<string, string> = {}): ApiResult {
  return {
    statusCode: status,
    headers: { 'content-type': 'application/json', ...headers },
    body: stringifyWithoutNulls(body),
  };
}

export function problemResult(problem: ProblemError, instance?: string): ApiResult {
  return {
    statusCode: problem.status,
    headers: { 'content-type': 'application/problem+json', ...problem.init.headers },
    body: stringifyWithoutNulls(toProblemDocument(problem, instance)),
  };
}
