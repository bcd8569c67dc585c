/**
 * The event stream's SNS topic in the local emulator (the CDK service stack creates it on AWS).
 * Locally there is one node, so queues and subscriptions of earlier runs (a killed `npm start`
 * cannot remove its own) are removed here before this run subscribes its own.
 */
import {
  CreateTopicCommand,
  ListSubscriptionsByTopicCommand,
  SNSClient,
  UnsubscribeCommand,
} from '@aws-sdk/client-sns';
import { DeleteQueueCommand, ListQueuesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DEFAULT_REGION, LOCAL_CREDENTIALS } from './create-resources.ts';

export const localStreamTopic = 'fsm-stream';

export async function createStreamTopic(endpoint: string): Promise<string> {
  const options = { endpoint, region: DEFAULT_REGION, credentials: LOCAL_CREDENTIALS };
  const sns = new SNSClient(options);
  const sqs = new SQSClient(options);
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
