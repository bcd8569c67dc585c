/**
 * The stateful stack, as deployed to prod: the table from tableDefinition with its outbox
 * stream, buckets that are never public, and queues that never lose a message silently.
 */
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { addEnvironmentStacks, type EnvironmentStacks } from '../../lib/app.ts';
import { pendingUploadExpiryDays, pendingUploadPrefix } from '../../lib/data-stack.ts';
import { environments } from '../../lib/environments.ts';
import { tableDefinition } from '../../shared/data/table-definition.ts';
import { createTestApp } from '../support/cdk-app.ts';

type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string };

let stacks: EnvironmentStacks;
let data: Template;
let allResources: Array<[string, Resource]>;

beforeAll(() => {
  const app = createTestApp();
  stacks = addEnvironmentStacks(app, 'prod', { nag: false });
  data = Template.fromStack(stacks.data);
  const service = Template.fromStack(stacks.service);
  allResources = [data, service].flatMap((t) =>
    Object.entries(t.toJSON().Resources as Record<string, Resource>),
  );
}, 120_000);

function ofType(type: string): Array<[string, Resource]> {
  return allResources.filter(([, resource]) => resource.Type === type);
}

describe('Stack: data > table', () => {
  it('is built from tableDefinition with the outbox stream, TTL and point-in-time recovery', () => {
    data.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      KeySchema: [
        { AttributeName: tableDefinition.partitionKey, KeyType: 'HASH' },
        { AttributeName: tableDefinition.sortKey, KeyType: 'RANGE' },
      ],
      StreamSpecification: { StreamViewType: tableDefinition.streamViewType },
      TimeToLiveSpecification: { AttributeName: tableDefinition.ttlAttribute, Enabled: true },
      Replicas: [
        {
          PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
          DeletionProtectionEnabled: true,
        },
      ],
    });
  });

  it('is retained when the stack goes away (prod)', () => {
    const [[, table]] = ofType('AWS::DynamoDB::GlobalTable') as [[string, Resource]];
    expect(table.DeletionPolicy).toBe('Retain');
  });

  it('is only unprotected in dev', () => {
    expect(environments.dev.tableDeletionProtection).toBe(false);
    expect(environments.staging.tableDeletionProtection).toBe(true);
    expect(environments.prod.tableDeletionProtection).toBe(true);
  });
});

describe('Stack: data > buckets', () => {
  it('blocks every kind of public access on every bucket of every stack', () => {
    const buckets = ofType('AWS::S3::Bucket');
    expect(buckets.length).toBeGreaterThanOrEqual(3);
    for (const [id, bucket] of buckets) {
      expect(bucket.Properties.PublicAccessBlockConfiguration, id).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
      expect(bucket.Properties.BucketEncryption, id).toBeDefined();
    }
  });

  it('refuses plain HTTP on every bucket', () => {
    const policies = ofType('AWS::S3::BucketPolicy');
    expect(policies).toHaveLength(ofType('AWS::S3::Bucket').length);
    for (const [id, policy] of policies) {
      const statements = policy.Properties.PolicyDocument.Statement as Array<Record<string, any>>;
      expect(
        statements.some((s) => s.Effect === 'Deny' && s.Condition?.Bool?.['aws:SecureTransport'] === 'false'),
        id,
      ).toBe(true);
    }
  });

  it('accepts browser presigned POSTs and expires unapplied uploads', () => {
    data.hasResourceProperties('AWS::S3::Bucket', {
      CorsConfiguration: { CorsRules: [{ AllowedMethods: ['POST'] }] },
      LifecycleConfiguration: {
        Rules: Match.arrayWith([
          Match.objectLike({
            Prefix: pendingUploadPrefix,
            ExpirationInDays: pendingUploadExpiryDays,
            Status: 'Enabled',
          }),
        ]),
      },
    });
  });
});

describe('Stack: data > queues', () => {
  it('gives every queue a dead-letter queue, except the dead-letter queues themselves', () => {
    const deadLetterIds = new Set(
      Object.values(stacks.data.deadLetterQueues).map((queue) =>
        stacks.data.getLogicalId(queue.node.defaultChild as never),
      ),
    );
    const queues = ofType('AWS::SQS::Queue');
    expect(queues.length).toBeGreaterThan(deadLetterIds.size);
    for (const [id, queue] of queues) {
      if (deadLetterIds.has(id)) continue;
      const target = queue.Properties.RedrivePolicy?.deadLetterTargetArn as {
        'Fn::GetAtt': [string, string];
      };
      expect(target, `${id} has no RedrivePolicy`).toBeDefined();
      expect(deadLetterIds.has(target['Fn::GetAtt'][0]), id).toBe(true);
    }
  });

  it('routes the stream processor failures to a dead-letter queue', () => {
    const failures = stacks.data.getLogicalId(stacks.data.streamFailureQueue.node.defaultChild as never);
    const [[, mapping]] = ofType('AWS::Lambda::EventSourceMapping') as [[string, Resource]];
    const destination = JSON.stringify(mapping.Properties.DestinationConfig.OnFailure.Destination);
    expect(destination).toContain(failures);
  });

  it('encrypts every queue and refuses plain HTTP', () => {
    for (const [id, queue] of ofType('AWS::SQS::Queue')) {
      expect(queue.Properties.SqsManagedSseEnabled, id).toBe(true);
    }
    expect(ofType('AWS::SQS::QueuePolicy')).toHaveLength(ofType('AWS::SQS::Queue').length);
  });
});

describe('Stack: data > signing key', () => {
  it('keeps the JWKS in Secrets Manager, filled from the generator without echoing it', () => {
    const generator = ofType('Custom::SigningKey');
    expect(generator).toHaveLength(1);
    data.hasResourceProperties('AWS::SecretsManager::Secret', {
      SecretString: { 'Fn::GetAtt': [generator[0]![0], 'Jwks'] },
    });
  });
});
