/**
 * The event stream's SNS topic in the local emulator (the CDK service stack creates it on AWS).
 * Locally there is one node, so queues and subscriptions of earlier runs (a killed `npm start`
 * cannot remove its own) are removed here before this run subscribes its own.
 */
import { CreateTopicCommand, ListSubscriptionsByTopicCommand, UnsubscribeCommand } from '@aws-sdk/client-sns';
import { DeleteQueueCommand, ListQueuesCommand } from '@aws-sdk/client-sqs';
import { snsClient, sqsClient } from '../aws/clients.ts';
import { DEFAULT_REGION } from './create-resources.ts';

export const localStreamTopic = 'fsm-stream';

export async function createStreamTopic(endpoint: string): Promise<string> {
  // A step of the start-up, retried as a whole (start-up-retry.ts): deadlines per attempt.
  const options = { endpoint, region: DEFAULT_REGION, deadlines: 'attempt' } as const;
  const sns = snsClient(options);
  const sqs = sqsClient(options);
  try {
    const { TopicArn } = await sns.send(new CreateTopicCommand({ Name: localStreamTopic }));
    if (!TopicArn) throw new Error('CreateTopic returned no ARN');
    const { Subscriptions = [] } = await sns.send(new ListSubscriptionsByTopicCommand({ TopicArn }));
    for (const subscription of Subscriptions) {
      if (subscription.SubscriptionArn) {
        await sns.send(new UnsubscribeCommand({ SubscriptionArn: subscription.SubscriptionArn }));
      }
    }
    const { QueueUrls = [] } = await sqs.send(
      new ListQueuesCommand({ QueueNamePrefix: `${localStreamTopic}-` }),
    );
    for (const QueueUrl of QueueUrls) await sqs.send(new DeleteQueueCommand({ QueueUrl }));
    return TopicArn;
  } finally {
    sns.destroy();
    sqs.destroy();
  }
}
