/**
 * The event stream's fan-out (docs/event-stream.md): one SNS topic that the `live` stream
 * processor publishes stream events to, and the rights of the Fargate tasks, each of which
 * subscribes a queue of its own at start (shared/realtime/fanout.ts) and removes it at stop.
 *
 * The topic lives in the service stack, not the data stack: it holds no data (SNS keeps no
 * messages), its only publisher and its only subscribers are in this stack, and a cross-stack
 * export would pin it (CloudFormation refuses to change an export that is in use). Deleting
 * the service stack deletes the topic and with it every subscription a task left behind.
 *
 * The queues are created at run time, so CloudFormation cannot name them: the task role may
 * only touch queues whose name starts with the environment's prefix, and may subscribe only
 * such queues to this topic.
 */
import { ArnFormat, Stack, Token, Validations } from 'aws-cdk-lib';
import { type IRole, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { type CfnTopic, Topic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import type { EnvironmentName } from './environments.ts';

/**
 * `fsm-<env>-stream`: the task's queues are `<prefix>-<task id>-<random>`
 * (shared/realtime/task-stream.ts).
 */
export function streamQueuePrefix(envName: EnvironmentName): string {
  return `fsm-${envName}-stream`;
}

/**
 * What a task does to its own queue (shared/realtime/fanout.ts: create, let the topic send to
 * it, long-poll, delete messages, delete the queue at stop), and what the sweep of queues left
 * by crashed tasks needs (shared/realtime/node-queues.ts: find a queue by name, read and
 * refresh its `fsm:alive-at` tag). DeleteMessageBatch is authorised by sqs:DeleteMessage.
 */
export const streamQueueActions = [
  'sqs:CreateQueue',
  'sqs:DeleteQueue',
  'sqs:GetQueueAttributes',
  'sqs:SetQueueAttributes',
  'sqs:ReceiveMessage',
  'sqs:DeleteMessage',
  'sqs:GetQueueUrl',
  'sqs:TagQueue',
  'sqs:ListQueueTags',
] as const;

/** What a task does on the topic: subscribe its queue, unsubscribe it (or a crashed task's), list them. */
export const streamTopicNodeActions = [
  'sns:Subscribe',
  'sns:Unsubscribe',
  'sns:ListSubscriptionsByTopic',
] as const;

/** The account's AWS managed KMS key for SNS. */
export const awsManagedSnsKey = 'alias/aws/sns';

export interface StreamFanoutProps {
  envName: EnvironmentName;
}

export class StreamFanout extends Construct {
  readonly topic: Topic;
  /** FSM_STREAM_QUEUE_PREFIX of the container. */
  readonly queuePrefix: string;
  /** `arn:aws:sqs:<region>:<account>:<prefix>-*`: every queue a task may create or touch. */
  readonly queueArnPattern: string;

  constructor(scope: Construct, id: string, props: StreamFanoutProps) {
    super(scope, id);
    this.queuePrefix = streamQueuePrefix(props.envName);
    this.queueArnPattern = Stack.of(this).formatArn({
      service: 'sqs',
      resource: `${this.queuePrefix}-*`,
      arnFormat: ArnFormat.NO_RESOURCE_NAME,
    });
    this.topic = new Topic(this, 'Topic', {
      displayName: 'Field service: event stream fan-out',
      enforceSSL: true,
    });
    // Encrypted with the account's AWS managed key for SNS, as the table, queues and buckets use
    // AWS managed encryption. It serves here because only principals of this account publish,
    // and its key policy admits them through SNS without IAM statements (a customer key is needed
    // when an AWS service publishes, as for the alarm topic). Written as SNS documents it, the
    // alias name, rather than the alias ARN that `masterKey: Alias.fromAliasName(...)` produces.
    (this.topic.node.defaultChild as CfnTopic).kmsMasterKeyId = awsManagedSnsKey;
  }

  /** Gives a container task role the statements of every node, and records why the prefix wildcard is needed. */
  allowNodes(role: IRole): void {
    for (const statement of this.nodeStatements()) role.addToPrincipalPolicy(statement);
    const stack = Stack.of(this);
    const shown = (value: string, pseudo: string) => (Token.isUnresolved(value) ? `<${pseudo}>` : value);
    const pattern = `arn:${shown(stack.partition, 'AWS::Partition')}:sqs:${shown(stack.region, 'AWS::Region')}:${shown(stack.account, 'AWS::AccountId')}:${this.queuePrefix}-*`;
    Validations.of(role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${pattern}]`,
      reason:
        'Each task creates its own queue at start under a run-time name (<prefix>-<task id>-<random>), ' +
        'which CloudFormation cannot name; the statement is limited to this environment’s prefix in this ' +
        'account and region, and sns:Subscribe is limited to such queues by an sns:Endpoint condition.',
    });
  }

  /** The task role's statements: its queues by prefix, the topic, subscriptions of such queues only. */
  nodeStatements(): PolicyStatement[] {
    return [
      new PolicyStatement({ actions: [...streamQueueActions], resources: [this.queueArnPattern] }),
      new PolicyStatement({
        actions: ['sns:Subscribe'],
        resources: [this.topic.topicArn],
        conditions: {
          StringEquals: { 'sns:Protocol': 'sqs' },
          StringLike: { 'sns:Endpoint': this.queueArnPattern },
        },
      }),
      new PolicyStatement({
        actions: streamTopicNodeActions.filter((action) => action !== 'sns:Subscribe'),
        resources: [this.topic.topicArn],
      }),
    ];
  }
}
