/**
 * The names of the stream's consumer groups (functions/stream-processor/consumers.ts says what
 * each group holds). Apart from the consumers, so that what only needs the names (the CDK
 * stacks, the bundle benchmark, which measures one stream processor per group) does not load
 * every consumer and its AWS clients.
 */
export const consumerGroupNames = ['records', 'live'] as const;

export type ConsumerGroup = (typeof consumerGroupNames)[number];

export function isConsumerGroup(name: string | undefined): name is ConsumerGroup {
  return (consumerGroupNames as readonly (string | undefined)[]).includes(name);
}

/**
 * The group that also applies the tallies writers left (shared/data/tally.ts): `records`, whose
 * work is bookkeeping; the live group's webhooks and fan-out never wait for counters.
 */
export const appliesTallies = (group: ConsumerGroup): boolean => group === 'records';
