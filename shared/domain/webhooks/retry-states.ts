/**
 * Where a failed delivery stands (webhook-failure.store.ts keeps the rows). Apart
 * from the store so that the delivery-failure schemas, which the route table loads, do not
 * load the data layer and its DynamoDB client.
 */
export const retryStates = ['PENDING', 'SUCCEEDED_AFTER_RETRY', 'EXHAUSTED', 'FAILED', 'CANCELLED'] as const;
export type RetryState = (typeof retryStates)[number];
