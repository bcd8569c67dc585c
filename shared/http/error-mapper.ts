/**
 * Every error a handler can raise becomes a problem document here, and only here. Each
 * module's closed error codes are mapped exhaustively, so a new code cannot ship unmapped.
 */
import { DataError, type DataErrorCode } from '../data/data-error.ts';
import { DomainError } from '../domain/domain-error.ts';
import { MailError } from '../mail/mail-error.ts';
import { logger } from '../observability/logger.ts';
import { SmsError } from '../sms/sms-error.ts';
import { problemOfDomainError } from './domain-problem.ts';
import { conflict, ProblemError } from './problem.ts';

function fromDataError(error: DataError): ProblemError {
  const code: DataErrorCode = error.code;
  switch (code) {
    case 'not-found':
      return new ProblemError('not-found', { detail: 'No resource with this id exists.' });
    case 'version-conflict':
      return conflict('The resource was changed by someone else.', error.storedVersion);
    case 'already-exists':
      return new ProblemError('resource-conflict', {
        detail: 'A resource with these unique values already exists.',
      });
    case 'unavailable':
      return new ProblemError('service-unavailable', {
        detail: 'The data store is busy or unreachable; retry shortly.',
        headers: { 'retry-after': '1' },
      });
    case 'too-costly':
      // The request's own choice (a sparse filter, a deep page): a 422 naming the page asked for.
      return new ProblemError('validation-failed', {
        detail: error.message,
        errors: [{ type: 'field-invalid', pointer: '#/query/page', detail: error.message }],
      });
    default: {
      const exhaustive: never = code;
      return exhaustive;
    }
  }
}

function fromMailError(error: MailError): ProblemError {
  const code: MailError['code'] = error.code;
  switch (code) {
    case 'unavailable':
      return new ProblemError('service-unavailable', {
        detail: 'The e-mail could not be handed over for delivery; retry shortly.',
        headers: { 'retry-after': '5' },
      });
    default: {
      const exhaustive: never = code;
      return exhaustive;
    }
  }
}

function fromSmsError(error: SmsError): ProblemError {
  const code: SmsError['code'] = error.code;
  switch (code) {
    case 'unavailable':
      return new ProblemError('service-unavailable', {
        detail: 'The text message could not be handed over for delivery; retry shortly.',
        headers: { 'retry-after': '5' },
      });
    default: {
      const exhaustive: never = code;
      return exhaustive;
    }
  }
}

export function toProblemError(error: unknown, context: Record<string, unknown>): ProblemError {
  if (error instanceof ProblemError) {
    if (error.status >= 500)
      logger.error('request failed', { ...context, type: error.type, detail: error.message });
    return error;
  }
  if (error instanceof DomainError) {
    const problem = problemOfDomainError(error);
    if (problem.status >= 500) {
      logger.error('request failed', {
        ...context,
        module: error.module,
        code: error.code,
        detail: error.message,
      });
    }
    return problem;
  }
  if (error instanceof DataError) {
    const problem = fromDataError(error);
    if (problem.status >= 500)
      logger.error('data store failure', { ...context, error: String(error.cause ?? error) });
    return problem;
  }
  if (error instanceof MailError) {
    logger.error('mail failure', { ...context, error: String(error.cause ?? error) });
    return fromMailError(error);
  }
  if (error instanceof SmsError) {
    logger.error('sms failure', { ...context, error: String(error.cause ?? error) });
    return fromSmsError(error);
  }
  logger.error('unhandled error', {
    ...context,
    error:
      error instanceof Error
        ? { name: error.name, message: error.message, stack: error.stack }
        : String(error),
  });
  return new ProblemError('internal-error', {
    detail: 'An unexpected error occurred; the request id identifies it.',
  });
}
