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
import { responseBase, sendResponse } from './custom-resource-response.ts';

export async function handler(event: CloudFormationCustomResourceEvent): Promise<void> {
  await sendResponse(event, await respondTo(event));
}

export async function respondTo(
  event: CloudFormationCustomResourceEvent,
  write: (clientId: string, secret: string) => Promise<void> = writeAdminClient,
): Promise<CloudFormationCustomResourceResponse> {
  const common = responseBase(event, 'admin-client');
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
