/**
 * The one description of the single table. The CDK data stack and the local stack both build
 * the table from it, so key names, indexes, TTL and stream settings cannot drift apart.
 * The key design that fills these attributes lives in `keys.ts`; see README.md beside this file.
 */
export const tableDefinition = {
  partitionKey: 'pk',
  sortKey: 'sk',
  /** Global secondary indexes, named after the access pattern they serve. */
  indexes: [] as ReadonlyArray<{ name: string; partitionKey: string; sortKey: string }>,
  /** Epoch-seconds attribute; DynamoDB deletes expired items eventually, reads filter on it themselves. */
  ttlAttribute: 'expires_at',
  /** The outbox needs new images only: consumers read the event item that was inserted. */
  streamViewType: 'NEW_IMAGE',
} as const;
