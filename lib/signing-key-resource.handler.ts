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
import { responseBase, sendResponse } from './custom-resource-response.ts';

export async function handler(event: CloudFormationCustomResourceEvent): Promise<void> {
  await sendResponse(event, await respondTo(event));
}

export async function respondTo(
  event: CloudFormationCustomResourceEvent,
): Promise<CloudFormationCustomResourceResponse> {
  const common = responseBase(event, 'signing-key');
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
