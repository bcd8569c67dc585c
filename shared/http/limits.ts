/**
 * How much one request may carry. The servers (shared/server/request-limits.ts) refuse larger
 * requests before they reach a handler; the kernel checks the body again in-function, so the
 * same 413 holds on Lambda, where API Gateway's own limit is far larger.
 */
import { ProblemError } from './problem.ts';

export const requestLimits = {
  /** Method, target and version. */
  requestLineBytes: 8 * 1024,
  /** The whole header block, request line included (Node's maxHeaderSize). */
  headerBytes: 16 * 1024,
  /** A request body. */
  bodyBytes: 1024 * 1024,
} as const;

export function payloadTooLarge(): ProblemError {
  return new ProblemError('payload-too-large', {
    detail: `Request bodies are limited to ${requestLimits.bodyBytes} bytes.`,
  });
}

export function uriTooLong(): ProblemError {
  return new ProblemError('uri-too-long', {
    detail: `The request line (method, path and query) is limited to ${requestLimits.requestLineBytes} bytes.`,
  });
}

export function headersTooLarge(): ProblemError {
  return new ProblemError('request-header-fields-too-large', {
    detail: `The request line and headers together are limited to ${requestLimits.headerBytes} bytes.`,
  });
}
