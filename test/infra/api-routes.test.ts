/**
 * The HTTP API follows the route table: one API Gateway route per table entry, integrated with
 * the Lambda of the entry's group, and a `$default` route to the problem-document fallback.
 * Every function is bundled and configured the same way and knows the public base URL.
 */
import type { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { addEnvironmentStacks, type EnvironmentStacks } from '../../lib/app.ts';
import { routeKeyOf } from '../../lib/route-integration.ts';
import { routes } from '../../shared/routes/route-table.ts';
import { createTestApp } from '../support/cdk-app.ts';

type Resource = { Type: string; Properties: Record<string, any> };

let app: App;
let stacks: EnvironmentStacks;
let template: Template;
let resources: Record<string, Resource>;

beforeAll(() => {
  // Prepare: one synth for the whole file. Without bundling (cdk-app.ts): nothing here reads a
  // bundle, lambda-tracing.test.ts bundles a function with the Lambda options, and .ci/run's
  // `npm run synth:all` bundles every function of every environment.
  app = createTestApp();
  stacks = addEnvironmentStacks(app, 'dev', { nag: false });
  template = Template.fromStack(stacks.service);
  resources = template.toJSON().Resources as Record<string, Resource>;
}, 120_000);

function ofType(type: string): Array<[string, Resource]> {
  return Object.entries(resources).filter(([, resource]) => resource.Type === type);
}

/** The Lambda logical id an API Gateway route ends up invoking. */
function functionOfRoute(route: Resource): string {
  const target = route.Properties.Target as { 'Fn::Join': [string, [string, { Ref: string }]] };
  const integrationId = target['Fn::Join'][1][1].Ref;
  const integration = resources[integrationId]!;
  expect(integration.Type).toBe('AWS::ApiGatewayV2::Integration');
  return (integration.Properties.IntegrationUri as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
}

function routesWithKey(routeKey: string): Resource[] {
  return ofType('AWS::ApiGatewayV2::Route')
    .map(([, route]) => route)
    .filter((route) => route.Properties.RouteKey === routeKey);
}

describe('Stack: service > HTTP API', () => {
  describe.each(routes.map((route) => ({ ...route, routeKey: routeKeyOf(route) })))(
    'route $operationId',
    ({ routeKey, group }) => {
      it(`has exactly one API Gateway route for ${routeKey}`, () => {
        expect(routesWithKey(routeKey)).toHaveLength(1);
      });

      it(`invokes the Lambda of group ${group}`, () => {
        const [route] = routesWithKey(routeKey);
        const fn = resources[functionOfRoute(route!)];
        expect(fn?.Properties.Description).toBe(`Operation group ${group}`);
      });
    },
  );

  it('serves nothing but the table and $default', () => {
    // Assess
    const keys = ofType('AWS::ApiGatewayV2::Route').map(([, route]) => route.Properties.RouteKey as string);
    expect(keys.sort()).toEqual([...routes.map(routeKeyOf), '$default'].sort());
  });

  it('answers unmatched requests with the platform fallbackHandler', () => {
    const [fallback] = routesWithKey('$default');
    const fn = resources[functionOfRoute(fallback!)];
    expect(fn?.Properties.Handler).toBe('index.fallbackHandler');
  });

  it('lets API Gateway invoke each function through one permission, for this API only', () => {
    // Assess: one permission per routed function (not one per route: 500-resource stack limit).
    const apiId = ofType('AWS::ApiGatewayV2::Api')[0]![0];
    const permissions = ofType('AWS::Lambda::Permission')
      .map(([, permission]) => permission.Properties)
      .filter((properties) => properties.Principal === 'apigateway.amazonaws.com');
    const routed = new Set(ofType('AWS::ApiGatewayV2::Route').map(([, route]) => functionOfRoute(route)));
    const permitted = permissions.map((properties) => properties.FunctionName['Fn::GetAtt'][0] as string);
    expect(permitted.sort()).toEqual([...routed].sort());
    for (const properties of permissions) {
      expect(JSON.stringify(properties.SourceArn)).toContain(apiId);
      expect(properties.Action).toBe('lambda:InvokeFunction');
    }
  });

  it('writes JSON access logs from the $default stage', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      AccessLogSettings: { Format: Match.stringLikeRegexp('"requestId":"\\$context\\.requestId"') },
    });
  });
});

describe('Stack: service > Lambda functions', () => {
  it('runs every function on nodejs24.x, arm64, with stacks mapped lazily and logs Lambda does not filter', () => {
    const functions = ofType('AWS::Lambda::Function').filter(([, fn]) => fn.Properties.Runtime !== undefined);
    expect(functions.length).toBeGreaterThan(0);
    for (const [id, fn] of functions) {
      if (id.startsWith('CustomVpcRestrictDefaultSG')) continue; // CDK's own provider
      expect(fn.Properties.Runtime, id).toBe('nodejs24.x');
      expect(fn.Properties.Architectures, id).toEqual(['arm64']);
      // The lines are JSON from Powertools' Logger, which filters and samples by level itself:
      // Lambda's JSON format would impose its own level on it (lib/service-function.ts).
      expect(fn.Properties.LoggingConfig?.LogFormat, id).toBe('Text');
      // No map parsed at each cold start: stacks are mapped when formatted (bundle-stack-traces.ts).
      expect(fn.Properties.Environment.Variables.NODE_OPTIONS, id).toBeUndefined();
    }
  });

  it('tells every function the CloudFront URL as base and auth URL', () => {
    const distributionId = ofType('AWS::CloudFront::Distribution')[0]![0];
    const baseUrl = { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId, 'DomainName'] }]] };
    for (const [id, fn] of ofType('AWS::Lambda::Function')) {
      const variables = fn.Properties.Environment?.Variables;
      if (!variables?.FSM_API_AUDIENCE) continue;
      expect(variables.FSM_BASE_URL, id).toEqual(baseUrl);
      expect(variables.FSM_AUTH_URL, id).toEqual(baseUrl);
    }
  });
});
