/**
 * The Lambda side of `npm run bench:tracing`: a handler built as every function is
 * (observedHandler, a DynamoDB client of shared/aws/clients.ts) making one GetItem per invocation
 * against BENCH_DYNAMODB, invoked as the runtime would, WARM_UP times and then INVOCATIONS times.
 * Prints the CPU (user + system) per measured invocation in microseconds.
 */
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import type { Context } from 'aws-lambda';
import { dynamoDbClient } from '../../shared/aws/clients.ts';
import { observedHandler } from '../../shared/observability/lambda-observability.ts';

const client = dynamoDbClient({ endpoint: process.env.BENCH_DYNAMODB });

const handler = observedHandler(async (event: { id: string }) =>
  client.send(new GetItemCommand({ TableName: 'fsm-bench', Key: { pk: { S: event.id } } })),
);

async function invoke(index: number): Promise<void> {
  // A new trace per invocation, as Lambda gives each invocation its own header.
  const hex = index.toString(16).padStart(24, '0');
  process.env._X_AMZN_TRACE_ID = `Root=1-5f84c7a1-${hex};Parent=53995c3f42cd8ad8;Sampled=1`;
  await handler({ id: `item-${index}` }, {
    functionName: process.env.AWS_LAMBDA_FUNCTION_NAME,
    awsRequestId: `request-${index}`,
    getRemainingTimeInMillis: () => 10_000,
  } as unknown as Context);
}

async function main(): Promise<void> {
  const warmUp = Number(process.env.WARM_UP ?? 200);
  const invocations = Number(process.env.INVOCATIONS ?? 2000);
  for (let i = 0; i < warmUp; i++) await invoke(i);
  const start = process.cpuUsage();
  for (let i = 0; i < invocations; i++) await invoke(warmUp + i);
  const used = process.cpuUsage(start);
  process.stdout.write(String((used.user + used.system) / invocations));
}

void main();
