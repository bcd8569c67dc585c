/**
 * The front door and the long-lived connections: CloudFront sends SSE and identity paths to
 * the load balancer and everything else to API Gateway without caching; the load balancer and
 * the container keep SSE connections alive. (Webhook delivery: webhook-delivery.test.ts.)
 */
import { Template } from 'aws-cdk-lib/assertions';
import { CachePolicy, OriginRequestPolicy } from 'aws-cdk-lib/aws-cloudfront';
import { beforeAll, describe, expect, it } from 'vitest';
import { addEnvironmentStacks, type EnvironmentStacks } from '../../lib/app.ts';
import { loadBalancerPaths } from '../../lib/edge.ts';
import { containerPort } from '../../lib/realtime.ts';
import { connectionCapacity } from '../../lib/realtime-capacity.ts';
import { createTestApp } from '../support/cdk-app.ts';

type Resource = { Type: string; Properties: Record<string, any> };

const sseHeartbeatSeconds = 30;
const sseConnectionLifetimeSeconds = 90;

let stacks: EnvironmentStacks;
let service: Template;
let resources: Record<string, Resource>;

beforeAll(() => {
  const app = createTestApp();
  stacks = addEnvironmentStacks(app, 'dev', { nag: false });
  service = Template.fromStack(stacks.service);
  resources = service.toJSON().Resources as Record<string, Resource>;
}, 120_000);

function only(type: string): [string, Resource] {
  const found = Object.entries(resources).filter(([, resource]) => resource.Type === type);
  expect(found, type).toHaveLength(1);
  return found[0]!;
}

function distributionConfig(): Record<string, any> {
  return only('AWS::CloudFront::Distribution')[1].Properties.DistributionConfig;
}

function originOf(behavior: { TargetOriginId: string }): Record<string, any> {
  return distributionConfig().Origins.find((origin: { Id: string }) => origin.Id === behavior.TargetOriginId);
}

describe('Stack: service > CloudFront', () => {
  it.each(loadBalancerPaths)('routes %s to the load balancer through the VPC origin', (path) => {
    // Act
    const behavior = distributionConfig().CacheBehaviors.find(
      (b: { PathPattern: string }) => b.PathPattern === path,
    );
    const origin = originOf(behavior);
    const [vpcOriginId, vpcOrigin] = only('AWS::CloudFront::VpcOrigin');
    const albId = stacks.service.getLogicalId(
      stacks.service.realtime.loadBalancer.node.defaultChild as never,
    );
    // Assess
    expect(origin.VpcOriginConfig.VpcOriginId).toEqual({ 'Fn::GetAtt': [vpcOriginId, 'Id'] });
    expect(vpcOrigin.Properties.VpcOriginEndpointConfig.Arn).toEqual({ Ref: albId });
    expect(origin.VpcOriginConfig.OriginReadTimeout).toBeGreaterThan(sseHeartbeatSeconds);
  });

  it('sends everything else to API Gateway', () => {
    const origin = originOf(distributionConfig().DefaultCacheBehavior);
    const apiId = stacks.service.getLogicalId(stacks.service.api.httpApi.node.defaultChild as never);
    expect(JSON.stringify(origin.DomainName)).toContain(`"${apiId}","ApiEndpoint"`);
    expect(origin.CustomOriginConfig.OriginProtocolPolicy).toBe('https-only');
  });

  it('caches nothing and forwards headers, query strings and Authorization', () => {
    const config = distributionConfig();
    for (const behavior of [config.DefaultCacheBehavior, ...config.CacheBehaviors]) {
      expect(behavior.CachePolicyId).toBe(CachePolicy.CACHING_DISABLED.cachePolicyId);
      expect(behavior.AllowedMethods).toContain('POST');
    }
    // AllViewer* forward every header (Authorization too, since caching is disabled), cookie and query string;
    // API Gateway needs its own Host.
    expect(config.DefaultCacheBehavior.OriginRequestPolicyId).toBe(
      OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER.originRequestPolicyId,
    );
    for (const behavior of config.CacheBehaviors) {
      expect(behavior.OriginRequestPolicyId).toBe(OriginRequestPolicy.ALL_VIEWER.originRequestPolicyId);
    }
  });
});

describe('Stack: service > load balancer and container', () => {
  it('keeps idle connections longer than the SSE heartbeat and connection lifetime', () => {
    const [, alb] = only('AWS::ElasticLoadBalancingV2::LoadBalancer');
    const attributes = alb.Properties.LoadBalancerAttributes as Array<{ Key: string; Value: string }>;
    const idle = Number(attributes.find((a) => a.Key === 'idle_timeout.timeout_seconds')?.Value);
    expect(idle).toBeGreaterThan(sseConnectionLifetimeSeconds);
    expect(alb.Properties.Scheme).toBe('internal');
  });

  it('checks task health with GET /health/ready (table, queues, signing keys)', () => {
    service.hasResourceProperties('AWS::ElasticLoadBalancingV2::TargetGroup', {
      HealthCheckPath: '/health/ready',
      Port: containerPort,
      Matcher: { HttpCode: '200' },
    });
  });

  it('rolls back a deployment whose tasks do not become healthy', () => {
    service.hasResourceProperties('AWS::ECS::Service', {
      DeploymentConfiguration: { DeploymentCircuitBreaker: { Enable: true, Rollback: true } },
    });
  });

  it('scales on CPU and on the tasks’ average of open connections, short of what a task holds', () => {
    const policies = Object.values(resources)
      .filter((r) => r.Type === 'AWS::ApplicationAutoScaling::ScalingPolicy')
      .map((r) => r.Properties.TargetTrackingScalingPolicyConfiguration);
    const cpu = policies.find((policy) => policy.PredefinedMetricSpecification);
    const connections = policies.find((policy) => policy.CustomizedMetricSpecification);
    const [, task] = only('AWS::ECS::TaskDefinition');
    const environment = Object.fromEntries(
      task.Properties.ContainerDefinitions[0].Environment.map((e: { Name: string; Value: unknown }) => [
        e.Name,
        e.Value,
      ]),
    );
    const capacity = Number(environment.FSM_STREAM_MAX_CONNECTIONS);

    expect(policies).toHaveLength(2);
    expect(cpu.PredefinedMetricSpecification.PredefinedMetricType).toBe('ECSServiceAverageCPUUtilization');
    expect(connections.CustomizedMetricSpecification).toMatchObject({
      MetricName: 'StreamConnections',
      Statistic: 'Average',
      Dimensions: [{ Name: 'service', Value: 'fsm-dev' }],
    });
    // A dev task (512 MiB) holds thousands, and more tasks start well before one is full.
    expect(capacity).toBe(connectionCapacity(512));
    expect(capacity).toBeGreaterThan(5_000);
    expect(connections.TargetValue).toBeLessThan(capacity * 0.8);
  });

  it('injects the signing keys from Secrets Manager, not as plain environment', () => {
    const [, task] = only('AWS::ECS::TaskDefinition');
    const [container] = task.Properties.ContainerDefinitions;
    expect(container.Secrets.map((s: { Name: string }) => s.Name)).toEqual(['FSM_SIGNING_JWKS']);
    expect(JSON.stringify(container.Environment)).not.toMatch(/"d"|PRIVATE/);
    expect(task.Properties.RuntimePlatform.CpuArchitecture).toBe('ARM64');
  });
});
