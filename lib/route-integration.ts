/**
 * API Gateway routes generated from THE route table: one route per table entry, integrated
 * with the Lambda of the entry's operation group. Nothing here names a path or a group, so a
 * new route or a new group in shared/routes/route-table.ts is deployed without touching infra.
 */
import { HttpMethod, HttpRoute, HttpRouteKey, type IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { type OperationGroup, type Route, routes } from '../shared/routes/route-table.ts';

/** `GET /api/v2/areas/{area_id}`: API Gateway's route key, whose path syntax is the table's. */
export function routeKeyOf(route: Pick<Route, 'method' | 'path'>): string {
  return `${route.method} ${route.path}`;
}

/** Adds one route per table entry; `functions` must hold every group (a missing one is a type error). */
export function addRoutesFromTable(
  scope: Construct,
  httpApi: IHttpApi,
  functions: Record<OperationGroup, IFunction>,
): HttpRoute[] {
  const integrations = new Map<OperationGroup, HttpLambdaIntegration>();
  const integrationOf = (group: OperationGroup): HttpLambdaIntegration => {
    let integration = integrations.get(group);
    if (!integration) {
      // One invoke permission per function, for any route of this API (source ARN
      // `<api>/*/*`), instead of one per route: a permission per route made the service stack
      // pass CloudFormation's 500-resource limit and grows the function's resource policy
      // towards its 20 KB limit; the API still is the only caller.
      integration = new HttpLambdaIntegration(`Integration-${group}`, functions[group], {
        scopePermissionToRoute: false,
      });
      integrations.set(group, integration);
    }
    return integration;
  };

  const seen = new Set<string>();
  return routes.map((route) => {
    const key = routeKeyOf(route);
    if (seen.has(key)) throw new Error(`The route table serves ${key} twice.`);
    seen.add(key);
    return new HttpRoute(scope, `Route-${route.operationId}`, {
      httpApi,
      routeKey: HttpRouteKey.with(route.path, HttpMethod[route.method]),
      integration: integrationOf(route.group),
    });
  });
}
