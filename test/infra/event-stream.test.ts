/**
 * The event stream as deployed (docs/event-stream.md): an encrypted SNS topic that only the
 * `live` stream processor publishes to; container tasks that may create, read and remove queues
 * of their environment's prefix only and subscribe such queues to the topic; and a CloudFront
 * behaviour that sends the stream path, uncached and unbuffered, to the load balancer with
 * timeouts above the heartbeat.
 */
import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { CachePolicy, OriginRequestPolicy } from 'aws-cdk-lib/aws-cloudfront';
import type { IRole } from 'aws-cdk-lib/aws-iam';
import { beforeAll, describe, expect, it } from 'vitest';
import { addEnvironmentStacks, type EnvironmentStacks } from '../../lib/app.ts';
import { environmentNames } from '../../lib/environments.ts';
import {
  awsManagedSnsKey,
  streamQueueActions,
  streamQueuePrefix,
  streamTopicNodeActions,
} from '../../lib/stream-fanout.ts';
import { dropAfterSeconds, heartbeatSeconds } from '../../shared/realtime/stream-hub.ts';
import { eventStreamPath } from '../../shared/routes/groups/stream.routes.ts';
import { createTestApp } from '../support/cdk-app.ts';

type Statement = {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: Record<string, Record<string, unknown>>;
};
type Resource = { Type: string; Properties: Record<string, any> };

let stacks: EnvironmentStacks;
let data: Record<string, Resource>;
let service: Record<string, Resource>;

beforeAll(() => {
  const app = createTestApp();
  stacks = addEnvironmentStacks(app, 'dev', { nag: false });
  data = Template.fromStack(stacks.data).toJSON().Resources;
  service = Template.fromStack(stacks.service).toJSON().Resources;
}, 120_000);

const asList = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);

function logicalId(construct: { node: { defaultChild?: unknown } }): string {
  return stacks.service.getLogicalId(construct.node.defaultChild as never);
}

function resolved(value: unknown): string {
  return JSON.stringify(Stack.of(stacks.service).resolve(value));
}

function topicId(): string {
  return logicalId(stacks.service.streamFanout.topic);
}

/** Every statement of every identity policy in both stacks, with the roles it is attached to. */
function allStatements(): Array<{ roles: string[]; statement: Statement }> {
  return [...Object.values(data), ...Object.values(service)]
    .filter((r) => r.Type === 'AWS::IAM::Policy')
    .flatMap((r) =>
      (r.Properties.PolicyDocument.Statement as Statement[]).map((statement) => ({
        roles: (r.Properties.Roles as Array<{ Ref: string }>).map((role) => role.Ref),
        statement,
      })),
    );
}

function statementsOf(role: IRole): Statement[] {
  const roleId = stacks.service.getLogicalId(role.node.defaultChild as never);
  return allStatements()
    .filter(({ roles }) => roles.includes(roleId))
    .map(({ statement }) => statement);
}

function containerEnvironment(): Record<string, unknown> {
  const [task] = Object.values(service).filter((r) => r.Type === 'AWS::ECS::TaskDefinition');
  const [container] = task!.Properties.ContainerDefinitions;
  return Object.fromEntries(
    (container.Environment as Array<{ Name: string; Value: unknown }>).map((v) => [v.Name, v.Value]),
  );
}

describe('Stack: service > stream topic', () => {
  it('exists once, in the service stack, encrypted with KMS and refusing requests without TLS', () => {
    const topics = Object.values(service).filter((r) => r.Type === 'AWS::SNS::Topic');
    const streamTopic = service[topicId()]!;
    expect(topics.length).toBeGreaterThanOrEqual(1);
    expect(Object.values(data).filter((r) => r.Type === 'AWS::SNS::Topic')).toEqual([]);
    expect(streamTopic.Properties.KmsMasterKeyId).toBe(awsManagedSnsKey);
    const policies = Object.values(service).filter(
      (r) =>
        r.Type === 'AWS::SNS::TopicPolicy' &&
        JSON.stringify(r.Properties.Topics) === JSON.stringify([{ Ref: topicId() }]),
    );
    expect(policies).toHaveLength(1);
    const statements = policies[0]!.Properties.PolicyDocument.Statement as Statement[];
    // The resource policy only denies (plain HTTP); every right comes from identity policies.
    expect(statements.map((s) => s.Effect)).toEqual(['Deny']);
    expect(statements[0]!.Condition).toEqual({ Bool: { 'aws:SecureTransport': 'false' } });
  });

  it('may be published to by the live stream processor only, which knows its ARN', () => {
    const live = stacks.service.events.liveStreamProcessor;
    // A role that may publish SMS (resource `*`) but is denied every topic publishes to none.
    const deniedTopics = new Set(
      allStatements()
        .filter(
          ({ statement }) =>
            statement.Effect === 'Deny' &&
            asList(statement.Action).includes('sns:Publish') &&
            asList(statement.Resource).includes('arn:aws:sns:*:*:*'),
        )
        .flatMap(({ roles }) => roles),
    );
    const publishers = allStatements().filter(
      ({ statement, roles }) =>
        !roles.every((role) => deniedTopics.has(role)) &&
        statement.Effect === 'Allow' &&
        asList(statement.Action).some((a) => a === 'sns:Publish' || a === 'sns:*') &&
        asList(statement.Resource).some(
          (resource) => resource === '*' || JSON.stringify(resource) === JSON.stringify({ Ref: topicId() }),
        ),
    );
    expect(publishers.flatMap(({ roles }) => roles)).toEqual([logicalId(live.role)]);
    expect(publishers.map(({ statement }) => asList(statement.Action))).toEqual([['sns:Publish']]);
    const variables = service[logicalId(live.function)]!.Properties.Environment.Variables;
    expect(variables.FSM_STREAM_TOPIC_ARN).toEqual({ Ref: topicId() });
  });

  it('is unknown to the records stream processor', () => {
    const records = stacks.service.events.streamProcessor;
    expect(
      statementsOf(records.role)
        .flatMap((s) => asList(s.Action))
        .filter((a) => a.startsWith('sns:')),
    ).toEqual([]);
    const variables = service[logicalId(records.function)]!.Properties.Environment.Variables;
    expect(variables).not.toHaveProperty('FSM_STREAM_TOPIC_ARN');
  });
});

describe('Stack: service > container tasks and their queues', () => {
  const taskRole = () => stacks.service.realtime.service.taskDefinition.taskRole;

  it('knows the topic and the queue name prefix of its environment', () => {
    const environment = containerEnvironment();
    expect(environment.FSM_STREAM_TOPIC_ARN).toEqual({ Ref: topicId() });
    expect(environment.FSM_STREAM_QUEUE_PREFIX).toBe('fsm-dev-stream');
  });

  it('may create, read, tag and delete queues named <prefix>-* only, in its own account and region', () => {
    const all = statementsOf(taskRole()).filter((s) => asList(s.Action).some((a) => a.startsWith('sqs:')));
    // Besides its stream queues the task only reads the work queues' attributes (/health/ready).
    const readiness = all.filter((s) => asList(s.Action).join() === 'sqs:GetQueueAttributes');
    expect(readiness).toHaveLength(1);
    expect(JSON.stringify(readiness[0]!.Resource)).not.toContain('*');
    const sqs = all.filter((s) => !readiness.includes(s));
    expect(sqs).toHaveLength(1);
    expect(asList(sqs[0]!.Action).sort()).toEqual([...streamQueueActions].sort());
    expect(JSON.stringify(sqs[0]!.Resource)).toBe(resolved(stacks.service.streamFanout.queueArnPattern));
    const pattern = JSON.stringify(sqs[0]!.Resource);
    expect(pattern).toMatch(/:sqs:/);
    expect(pattern).toContain('"AWS::AccountId"');
    expect(pattern).toContain(`:${containerEnvironment().FSM_STREAM_QUEUE_PREFIX}-*"`);
    expect(streamQueueActions).not.toContain('sqs:SendMessage');
    expect(streamQueueActions).not.toContain('sqs:ListQueues');
  });

  it('may subscribe only queues of its prefix, over SQS, and unsubscribe and list on the topic only', () => {
    const sns = statementsOf(taskRole()).filter((s) => asList(s.Action).some((a) => a.startsWith('sns:')));
    const topic = JSON.stringify({ Ref: topicId() });
    for (const statement of sns) expect(JSON.stringify(statement.Resource)).toBe(topic);
    expect(sns.flatMap((s) => asList(s.Action)).sort()).toEqual([...streamTopicNodeActions].sort());
    const subscribe = sns.find((s) => asList(s.Action).includes('sns:Subscribe'))!;
    expect(asList(subscribe.Action)).toEqual(['sns:Subscribe']);
    expect(subscribe.Condition?.StringEquals).toEqual({ 'sns:Protocol': 'sqs' });
    expect(JSON.stringify(subscribe.Condition?.StringLike?.['sns:Endpoint'])).toBe(
      resolved(stacks.service.streamFanout.queueArnPattern),
    );
  });

  it('gives every environment a prefix of its own, so no environment can touch another one’s queues', () => {
    const prefixes = environmentNames.map((name) => `${streamQueuePrefix(name)}-`);
    for (const a of prefixes) {
      expect(prefixes.filter((b) => b.startsWith(a) || a.startsWith(b))).toEqual([a]);
    }
  });
});

describe('Stack: service > the stream path at the edge', () => {
  function distributionConfig(): Record<string, any> {
    const [distribution] = Object.values(service).filter((r) => r.Type === 'AWS::CloudFront::Distribution');
    return distribution!.Properties.DistributionConfig;
  }

  it('routes GET /api/v2/events/stream to the load balancer: uncached, uncompressed, every viewer header', () => {
    const config = distributionConfig();
    const behavior = config.CacheBehaviors.find(
      (b: { PathPattern: string }) => b.PathPattern === eventStreamPath,
    );
    expect(behavior).toBeDefined();
    expect(behavior.CachePolicyId).toBe(CachePolicy.CACHING_DISABLED.cachePolicyId);
    expect(behavior.OriginRequestPolicyId).toBe(OriginRequestPolicy.ALL_VIEWER.originRequestPolicyId);
    expect(behavior.Compress).toBe(false);
    expect(behavior.AllowedMethods).toContain('GET');
    expect(behavior.ViewerProtocolPolicy).toBe('https-only');
    const origin = config.Origins.find((o: { Id: string }) => o.Id === behavior.TargetOriginId);
    const [vpcOriginId] = Object.entries(service).find(([, r]) => r.Type === 'AWS::CloudFront::VpcOrigin')!;
    expect(origin.VpcOriginConfig.VpcOriginId).toEqual({ 'Fn::GetAtt': [vpcOriginId, 'Id'] });
  });

  it('waits longer than a heartbeat gap for the next bytes, at CloudFront and at the load balancer', () => {
    const config = distributionConfig();
    const behavior = config.CacheBehaviors.find(
      (b: { PathPattern: string }) => b.PathPattern === eventStreamPath,
    );
    const origin = config.Origins.find((o: { Id: string }) => o.Id === behavior.TargetOriginId);
    expect(origin.VpcOriginConfig.OriginReadTimeout).toBeGreaterThan(heartbeatSeconds);
    const [alb] = Object.values(service).filter(
      (r) => r.Type === 'AWS::ElasticLoadBalancingV2::LoadBalancer',
    );
    const attributes = alb!.Properties.LoadBalancerAttributes as Array<{ Key: string; Value: string }>;
    const idle = Number(attributes.find((a) => a.Key === 'idle_timeout.timeout_seconds')?.Value);
    expect(idle).toBeGreaterThan(dropAfterSeconds);
  });

  it('lets a draining task keep its streams until the server has dropped them', () => {
    const [group] = Object.values(service).filter(
      (r) => r.Type === 'AWS::ElasticLoadBalancingV2::TargetGroup',
    );
    const attributes = group!.Properties.TargetGroupAttributes as Array<{ Key: string; Value: string }>;
    const delay = Number(attributes.find((a) => a.Key === 'deregistration_delay.timeout_seconds')?.Value);
    expect(delay).toBeGreaterThan(dropAfterSeconds);
  });
});
