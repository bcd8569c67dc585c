/**
 * Least privilege: each function's role allows exactly what its group declares in
 * lib/table-access.ts, plus writing its own log group and X-Ray traces, and nothing anywhere uses
 * `*` actions.
 */
import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { addEnvironmentStacks, type EnvironmentStacks } from '../../lib/app.ts';
import type { ServiceFunction } from '../../lib/service-function.ts';
import {
  containerTableActions,
  groupExtraTableActions,
  groupTableAccess,
  liveStreamProcessorTableActions,
  mailSendingGroups,
  routeMatrixGroups,
  smsSendingGroups,
  streamProcessorTableActions,
  streamReadActions,
  tableActions,
  uploadGroups,
} from '../../lib/table-access.ts';
import { uploadObjectActions } from '../../lib/upload-checks.ts';
import { operationGroups } from '../../shared/routes/route-table.ts';
import { createTestApp } from '../support/cdk-app.ts';

type Statement = { Action: string | string[]; Resource: unknown; Effect: string };
type Resource = { Type: string; Properties: Record<string, any> };

let stacks: EnvironmentStacks;
let templates: Template[];

beforeAll(() => {
  const app = createTestApp();
  stacks = addEnvironmentStacks(app, 'dev', { nag: false });
  templates = [Template.fromStack(stacks.data), Template.fromStack(stacks.service)];
}, 120_000);

function actionsOf(statement: Statement): string[] {
  return Array.isArray(statement.Action) ? statement.Action : [statement.Action];
}

/** Every statement of every policy attached to the role, and the role's managed policies. */
function roleGrants(fn: ServiceFunction): { statements: Statement[]; managed: unknown[] } {
  const stack = Stack.of(fn);
  const roleId = stack.getLogicalId(fn.role.node.defaultChild as never);
  const resources = Template.fromStack(stack).toJSON().Resources as Record<string, Resource>;
  const statements: Statement[] = [];
  for (const resource of Object.values(resources)) {
    if (resource.Type !== 'AWS::IAM::Policy') continue;
    const roles = resource.Properties.Roles as Array<{ Ref: string }>;
    if (roles.some((role) => role.Ref === roleId))
      statements.push(...resource.Properties.PolicyDocument.Statement);
  }
  const role = resources[roleId]!;
  for (const inline of (role.Properties.Policies ?? []) as Array<{
    PolicyDocument: { Statement: Statement[] };
  }>) {
    statements.push(...inline.PolicyDocument.Statement);
  }
  return { statements, managed: role.Properties.ManagedPolicyArns ?? [] };
}

function dynamoActions(statements: Statement[]): string[] {
  return statements
    .flatMap(actionsOf)
    .filter((action) => action.startsWith('dynamodb:'))
    .sort();
}

/** What every function may do with its own logs and traces (lib/service-function.ts). */
const ownTelemetryActions = [
  'logs:CreateLogStream',
  'logs:PutLogEvents',
  'xray:PutTraceSegments',
  'xray:PutTelemetryRecords',
];

function nonLogActions(statements: Statement[]): string[] {
  return statements
    .flatMap(actionsOf)
    .filter((action) => !ownTelemetryActions.includes(action))
    .sort();
}

describe('IAM: operation groups', () => {
  it.each(operationGroups.map((group) => ({ group, access: groupTableAccess[group] })))(
    'group $group gets $access table access and nothing else',
    ({ group, access }) => {
      // Act
      const { statements, managed } = roleGrants(stacks.service.api.groupFunctions[group]);
      // Assess
      expect(managed).toEqual([]);
      const mail = (mailSendingGroups as readonly string[]).includes(group) ? ['ses:SendEmail'] : [];
      // SMS: an Allow on `*` and a Deny on every topic (lib/api.ts allowSms).
      const sms = (smsSendingGroups as readonly string[]).includes(group)
        ? ['sns:Publish', 'sns:Publish']
        : [];
      const extra = groupExtraTableActions[group] ?? [];
      // Upload forms, checks and read URLs of the private upload bucket (lib/upload-checks.ts).
      const uploads = (uploadGroups as readonly string[]).includes(group) ? uploadObjectActions : [];
      // Travel from Amazon Location for slots and bookings (lib/api.ts allowRouteMatrices).
      const routes = (routeMatrixGroups as readonly string[]).includes(group)
        ? ['geo-routes:CalculateRouteMatrix']
        : [];
      expect(nonLogActions(statements)).toEqual(
        [...tableActions[access], ...extra, ...mail, ...sms, ...uploads, ...routes].sort(),
      );
    },
  );

  it('lets only the mail-sending groups send e-mail, from SES identities of the account', () => {
    const { statements } = roleGrants(stacks.service.api.groupFunctions.users);
    const mail = statements.find((statement) => actionsOf(statement).includes('ses:SendEmail'));
    expect(JSON.stringify(Stack.of(stacks.service).resolve(mail?.Resource))).toContain(':identity/');
  });

  it('scopes table statements to the table and its list indexes by name, not to `*`', () => {
    const { statements } = roleGrants(stacks.service.api.groupFunctions.areas);
    const table = statements.find((statement) => actionsOf(statement).some((a) => a.startsWith('dynamodb:')));
    const arn = stacks.data.table.tableArn;
    expect(table?.Resource).toEqual(
      Stack.of(stacks.service).resolve([
        arn,
        ...['gsi1', 'gsi2', 'gsi3', 'gsi4', 'gsi5', 'gsi6'].map((name) => `${arn}/index/${name}`),
      ]),
    );
  });

  it('gives the $default fallback no data access at all', () => {
    const { statements } = roleGrants(stacks.service.api.fallbackFunction);
    expect(nonLogActions(statements)).toEqual([]);
  });
});

describe('IAM: event functions and container', () => {
  it.each([
    {
      group: 'records',
      processor: () => stacks.service.events.streamProcessor,
      table: streamProcessorTableActions,
      deliveryQueue: [],
      sns: [],
    },
    {
      group: 'live',
      processor: () => stacks.service.events.liveStreamProcessor,
      table: liveStreamProcessorTableActions,
      deliveryQueue: ['sqs:SendMessage'],
      // The event stream's fan-out (event-stream.test.ts checks it is on the stream topic only).
      sns: ['sns:Publish'],
    },
  ])(
    'lets the $group stream processor do its work, read the stream and report failures, nothing more',
    ({ processor, table, deliveryQueue, sns }) => {
      const { statements, managed } = roleGrants(processor());
      expect(managed).toEqual([]);
      expect(dynamoActions(statements)).toEqual([...table, ...streamReadActions].sort());
      // A statement may name several queues (CDK merges statements of the same actions).
      const sqsOn = (queueArn: string) =>
        statements
          .filter((s) =>
            (Array.isArray(s.Resource) ? s.Resource : [s.Resource])
              .map((resource) => JSON.stringify(resource))
              .includes(JSON.stringify(Stack.of(stacks.service).resolve(queueArn))),
          )
          .flatMap(actionsOf)
          .filter((a) => a.startsWith('sqs:'))
          .sort();
      expect(sqsOn(stacks.data.streamFailureQueue.queueArn)).toEqual([
        'sqs:GetQueueAttributes',
        'sqs:GetQueueUrl',
        'sqs:SendMessage',
      ]);
      expect(sqsOn(stacks.data.webhookDeliveryQueue.queueArn)).toEqual(deliveryQueue);
      // New optimization runs go to the solver queue (solver-dispatch.consumer.ts).
      expect(sqsOn(stacks.data.solverQueue.queueArn)).toEqual(deliveryQueue);
      expect(statements.flatMap(actionsOf).filter((a) => a.startsWith('sns:'))).toEqual(sns);
    },
  );

  it("gives the container's task role exactly the identity provider's table actions", () => {
    const service = Template.fromStack(stacks.service).toJSON().Resources as Record<string, Resource>;
    const taskRole = stacks.service.realtime.service.taskDefinition.taskRole;
    const roleId = stacks.service.getLogicalId(taskRole.node.defaultChild as never);
    const statements = Object.values(service)
      .filter(
        (r) =>
          r.Type === 'AWS::IAM::Policy' && r.Properties.Roles.some((x: { Ref: string }) => x.Ref === roleId),
      )
      .flatMap((r) => r.Properties.PolicyDocument.Statement as Statement[]);
    expect(dynamoActions(statements)).toEqual([...containerTableActions].sort());
  });
});

describe('IAM: every policy of every stack', () => {
  it('uses no wildcard actions', () => {
    for (const template of templates) {
      const resources = template.toJSON().Resources as Record<string, Resource>;
      for (const [id, resource] of Object.entries(resources)) {
        const documents =
          resource.Type === 'AWS::IAM::Policy'
            ? [resource.Properties.PolicyDocument]
            : resource.Type === 'AWS::IAM::Role'
              ? (resource.Properties.Policies ?? []).map((p: { PolicyDocument: unknown }) => p.PolicyDocument)
              : [];
        for (const document of documents) {
          for (const statement of document.Statement as Statement[]) {
            for (const action of actionsOf(statement)) expect(action, `${id}: ${action}`).not.toContain('*');
          }
        }
      }
    }
  });
});
