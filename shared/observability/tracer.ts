/**
 * X-Ray traces through Powertools for AWS Lambda's Tracer. On Lambda (tracing Active, lib/
 * service-function.ts) each invocation is a segment (lambda-observability.ts), and every AWS SDK
 * client built by shared/aws/clients.ts is captured, so each DynamoDB, SQS, SNS, S3 … call is a
 * subsegment; outgoing HTTP (webhook attempts, the identity provider's keys) is captured too.
 * Elsewhere the Tracer is disabled and the SDK stays in manual mode (xray-mode.ts).
 */
import './xray-mode.ts';
import { Tracer } from '@aws-lambda-powertools/tracer';

export const tracer = new Tracer({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'fsm' });

/** `client` with its calls traced (as it is when tracing is off). */
export function traced<C>(client: C): C {
  return tracer.isTracingEnabled() ? tracer.captureAWSv3Client(client) : client;
}

/**
 * The X-Ray trace header of the invocation being served (`Root=…;Parent=…;Sampled=…`), to hand
 * on with work queued for later (SQS's AWSTraceHeader), so the later work joins this trace.
 */
export function currentTraceHeader(): string | undefined {
  return tracer.isTracingEnabled() ? process.env._X_AMZN_TRACE_ID : undefined;
}
