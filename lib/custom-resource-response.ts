/**
 * What every CloudFormation custom resource handler of this app does around its own work:
 * the response skeleton (a new physical id on Create, the old one kept afterwards so
 * CloudFormation never replaces the resource) and the upload of the answer. Its stack traces
 * read in our sources, as every function's (bundle-stack-traces.ts).
 */
import type { CloudFormationCustomResourceEvent, CloudFormationCustomResourceResponse } from 'aws-lambda';
import { mapLambdaStackTraces } from '../shared/observability/bundle-stack-traces.ts';

if (process.env.AWS_LAMBDA_FUNCTION_NAME) mapLambdaStackTraces();

type ResponseBase = Pick<
  CloudFormationCustomResourceResponse,
  'PhysicalResourceId' | 'StackId' | 'RequestId' | 'LogicalResourceId'
>;

export function responseBase(event: CloudFormationCustomResourceEvent, idPrefix: string): ResponseBase {
  return {
    PhysicalResourceId:
      event.RequestType === 'Create' ? `${idPrefix}-${event.RequestId}` : event.PhysicalResourceId,
    StackId: event.StackId,
    RequestId: event.RequestId,
    LogicalResourceId: event.LogicalResourceId,
  };
}

/** PUT the answer to CloudFormation's pre-signed URL. */
export async function sendResponse(
  event: CloudFormationCustomResourceEvent,
  response: CloudFormationCustomResourceResponse,
): Promise<void> {
  // The pre-signed S3 URL rejects a Content-Type it was not signed for: send none.
  const answer = await fetch(event.ResponseURL, {
    method: 'PUT',
    body: JSON.stringify(response),
    headers: { 'content-type': '' },
  });
  if (!answer.ok) throw new Error(`CloudFormation response upload failed with HTTP ${answer.status}`);
}
