/**
 * CloudFormation custom resource: creates the identity provider's signing key (a private
 * RS256 JWKS) at deploy time, so `cdk deploy` needs no manual key step and the key never
 * appears in the template or in cdk.out.
 *
 * Rules:
 * - Create and Update answer a fresh key as attribute `Jwks` with `NoEcho`, so CloudFormation
 *   masks it wherever it shows attributes; the Secret reads it with Fn::GetAtt. An Update only
 *   happens when the resource's `Generation` property changes (a deliberate rotation).
 * - Delete answers success and does nothing (the Secret holds the key; the Secret's removal
 *   policy decides its fate).
 * - The key is never logged: on failure only the error's message goes to CloudFormation.
 */
import type { CloudFormationCustomResourceEvent, CloudFormationCustomResourceResponse } from 'aws-lambda';
import { generateSigningKey } from '../shared/identity/signing-keys.ts';

export async function handler(event: CloudFormationCustomResourceEvent): Promise<void> {
  const response = await respondTo(event);
  const body = JSON.stringify(response);
  // The pre-signed S3 URL rejects a Content-Type it was not signed for: send none.
  const answer = await fetch(event.ResponseURL, {
    method: 'PUT',
    body,
    headers: { 'content-type': '' },
  });
  if (!answer.ok) throw new Error(`CloudFormation response upload failed with HTTP ${answer.status}`);
}

export async function respondTo(
  event: CloudFormationCustomResourceEvent,
): Promise<CloudFormationCustomResourceResponse> {
  const physicalResourceId =
    event.RequestType === 'Create' ? `signing-key-${event.RequestId}` : event.PhysicalResourceId;
  const common = {
    PhysicalResourceId: physicalResourceId,
    StackId: event.StackId,
    RequestId: event.RequestId,
    LogicalResourceId: event.LogicalResourceId,
  };
  if (event.RequestType === 'Delete') return { ...common, Status: 'SUCCESS' };
  try {
    const jwks = { keys: [await generateSigningKey()] };
    return { ...common, Status: 'SUCCESS', NoEcho: true, Data: { Jwks: JSON.stringify(jwks) } };
  } catch (error) {
    return {
      ...common,
      Status: 'FAILED',
      Reason: `signing key generation failed: ${(error as Error).message}`,
    };
  }
}
