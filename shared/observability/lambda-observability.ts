/**
 * What every Lambda handler runs inside, as middy middlewares, on Lambda only: Powertools'
 * injectLambdaContext (the invocation's request id and cold start on each log line, and a new
 * debug-sampling decision per invocation) and captureLambdaHandler (the invocation as an X-Ray
 * segment, errors annotated). The local stack and the container call the same handlers without
 * them: they serve many requests at once, where the Logger's per-invocation context would be
 * shared, and nothing is traced there.
 */

import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { mapLambdaStackTraces } from './bundle-stack-traces.ts';
import { powertoolsLogger } from './logger.ts';
import { measureWork } from './metrics.ts';
import { tracer } from './tracer.ts';

export const onLambda = Boolean(process.env.AWS_LAMBDA_FUNCTION_NAME);

// Stack traces in our sources, mapped when formatted (not --enable-source-maps at every start).
if (onLambda) mapLambdaStackTraces();

/** The middlewares for a middy handler (the HTTP kernel uses them). */
export function lambdaObservability(): middy.MiddlewareObj[] {
  if (!onLambda) return [];
  return [
    injectLambdaContext(powertoolsLogger, { resetKeys: true }),
    // Responses and events may carry personal data: not copied into traces.
    captureLambdaHandler(tracer, { captureResponse: false }),
  ];
}

/**
 * A background handler (a queue, the table's stream, an upload's check): the middlewares on
 * Lambda, and the DynamoDB capacity each invocation consumed (`measureWork`, by `name`), as a
 * request's is by its operation. The local stack measures its pollers' work the same way.
 */
export function observedWorker<E, R>(name: string, handler: (event: E, context: Context) => Promise<R>) {
  return observedHandler<E, R>((event, context) => measureWork(name, () => handler(event, context)));
}

/** A plain handler (queues, streams, events) with the same middlewares. */
export function observedHandler<E, R>(handler: (event: E, context: Context) => Promise<R>) {
  if (!onLambda) return handler;
  return middy<E, R>().use(lambdaObservability()).handler(handler) as unknown as (
    event: E,
    context: Context,
  ) => Promise<R>;
}
