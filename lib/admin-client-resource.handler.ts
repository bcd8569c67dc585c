/**
 * CloudFormation custom resource: creates the admin control plane's client at deploy time, so
 * `/admin-v1` is usable right after `cdk deploy` and its secret never appears in the template.
 *
 * Rules:
 * - Create and Update write the realm `fsm-admin` and the client `ClientId` with a fresh
 *   secret into the table (FSM_TABLE_NAME), and answer the secret as attribute `ClientSecret` with
 *   `NoEcho`; the Secret reads it with Fn::GetAtt. An Update only happens when a property
 *   changes (`Generation` bumped to rotate, or another `ClientId`): the old secret stops
 *   working at once.
 * - Delete answers success and leaves the table alone (the table's removal policy decides).
 * - The secret is never logged: on failure only the error's message goes to CloudFormation.
 */
import type { CloudFormationCustomResourceEvent, CloudFormationCustomResourceResponse } from 'aws-lambda';
import { newAdminClientSecret, writeAdminClient } from '../shared/domain/workspaces/admin-client.ts';

export async function handler(event: CloudFormationCustomResourceEvent): Promise<void> {
  const response = await respondTo(event);
  // The pre-signed S3 URL rejects a Content-Type it was not signed for: send none.
  const answer = await fetch(event.ResponseURL, {
    method: 'PUT',
    body: JSON.stringify(response),
    headers: { 'content-type': '' },
  });
  if (!answer.ok) throw new Error(`CloudFormation response upload failed with HTTP ${answer.status}`);
}

export async function respondTo(
  event: CloudFormationCustomResourceEvent,
  write: (clientId: string, secret: string) => Promise<void> = writeAdminClient,
): Promise<CloudFormationCustomResourceResponse> {
  const physicalResourceId =
    event.RequestType === 'Create' ? `admin-client-${event.RequestId}` : event.PhysicalResourceId;
  const common = {
    PhysicalResourceId: physicalResourceId,
    StackId: event.StackId,
    RequestId: event.RequestId,
    LogicalResourceId: event.LogicalResourceId,
  };
  if (event.RequestType === 'Delete') return { ...common, Status: 'SUCCESS' };
  const clientId = String(event.ResourceProperties.ClientId ?? '');
  if (!clientId) return { ...common, Status: 'FAILED', Reason: 'the ClientId property is required' };
  try {
    const secret = newAdminClientSecret();
    await write(clientId, secret);
    return { ...common, Status: 'SUCCESS', NoEcho: true, Data: { ClientId: clientId, ClientSecret: secret } };
  } catch (error) {
    return { ...common, Status: 'FAILED', Reason: `admin client setup failed: ${(error as Error).message}` };
  }
}
