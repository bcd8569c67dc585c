/**
 * The custom resource that creates the identity provider's signing key at deploy time.
 */
import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { respondTo } from '../../lib/signing-key-resource.handler.ts';

function event(requestType: 'Create' | 'Update' | 'Delete'): CloudFormationCustomResourceEvent {
  const common = {
    ServiceToken: 'arn:aws:lambda:eu-central-1:123456789012:function:generator',
    ResponseURL: 'https://example.invalid/response',
    StackId: 'arn:aws:cloudformation:eu-central-1:123456789012:stack/fsm-dev-data/1',
    RequestId: 'request-1',
    LogicalResourceId: 'SigningKey',
    ResourceType: 'Custom::SigningKey',
    ResourceProperties: { ServiceToken: 'x', Generation: '1' },
  };
  if (requestType === 'Create') return { ...common, RequestType: 'Create' };
  if (requestType === 'Update') {
    return {
      ...common,
      RequestType: 'Update',
      PhysicalResourceId: 'key-1',
      OldResourceProperties: { ServiceToken: 'x', Generation: '0' },
    };
  }
  return { ...common, RequestType: 'Delete', PhysicalResourceId: 'key-1' };
}

describe('Handler: signing key resource', () => {
  it.each(['Create', 'Update'] as const)('answers a fresh private RS256 JWKS on %s, masked', async (type) => {
    // Act
    const response = await respondTo(event(type));
    // Assess
    expect(response.Status).toBe('SUCCESS');
    expect(response.NoEcho).toBe(true);
    const jwks = JSON.parse(String(response.Data?.Jwks)) as { keys: Array<Record<string, string>> };
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(jwks.keys[0]?.d).toBeTypeOf('string');
    expect(Buffer.byteLength(JSON.stringify(response))).toBeLessThan(4096); // CloudFormation's response limit
  });

  it('keeps the physical id on Update so CloudFormation does not replace the resource', async () => {
    expect((await respondTo(event('Update'))).PhysicalResourceId).toBe('key-1');
  });

  it('does nothing on Delete', async () => {
    const response = await respondTo(event('Delete'));
    expect(response).toMatchObject({ Status: 'SUCCESS', PhysicalResourceId: 'key-1' });
    expect(response.Data).toBeUndefined();
  });
});
