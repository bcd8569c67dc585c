/**
 * What a role of a synthesized stack is granted, as (action, resource) pairs: the policies that
 * name the role, each statement spread over its actions and resources (resources as JSON, so a
 * token reads the same on both sides of a comparison).
 */
import type { Stack } from 'aws-cdk-lib';

type Resource = { Type: string; Properties: Record<string, any> };

export function roleGrants(
  stack: Stack,
  resources: Record<string, Resource>,
  role: { node: { defaultChild?: unknown } },
): Array<[string, string]> {
  const roleId = stack.getLogicalId(role.node.defaultChild as never);
  return Object.values(resources)
    .filter(
      (r) =>
        r.Type === 'AWS::IAM::Policy' && r.Properties.Roles.some((x: { Ref: string }) => x.Ref === roleId),
    )
    .flatMap(
      (r) => r.Properties.PolicyDocument.Statement as Array<{ Action: string | string[]; Resource: unknown }>,
    )
    .flatMap((statement) => {
      const actions = Array.isArray(statement.Action) ? statement.Action : [statement.Action];
      const granted = Array.isArray(statement.Resource) ? statement.Resource : [statement.Resource];
      return actions.flatMap((action) =>
        granted.map((resource): [string, string] => [action, JSON.stringify(resource)]),
      );
    });
}
