/**
 * The one description of the single table. The CDK data stack and the local stack both build
 * the table from it, so key names, indexes, TTL and stream settings cannot drift apart.
 * The key design that fills these attributes lives in `keys.ts` and `lists.ts`; see README.md
 * beside this file.
 */

/**
 * Attributes every list index carries besides its keys: what residual filters, secondary
 * orders and search read from an index entry without fetching the item. DynamoDB allows 100
 * projected attributes summed over all indexes.
 */
export const listedAttributes = [
  'id',
  'status',
  'roles',
  'skill_ids',
  'tag_ids',
  'firstname',
  'lastname',
  'email',
  'name',
  'color',
  'skill_type',
  'short_key',
  'created_at',
  'updated_at',
  // Tag usage counters (tag-usage.store.ts) are index entries too.
  'count',
  // One map per entry of what else a list's filters and further sort keys read (ListSpec
  // `listedValues`, list-index.ts): 16 names × 6 indexes = 96 of the 100, so a new collection
  // adds its fields there, never here.
  'list_values',
] as const;

export interface IndexDefinition {
  name: IndexName;
  partitionKey: string;
  sortKey: string;
  /** Strings order by UTF-8 bytes; numbers by value (counts). */
  sortKeyType: 'S' | 'N';
}

export type IndexName = 'gsi1' | 'gsi2' | 'gsi3' | 'gsi4' | 'gsi5' | 'gsi6';

const stringIndex = (name: IndexName): IndexDefinition => ({
  name,
  partitionKey: `${name}pk`,
  sortKey: `${name}sk`,
  sortKeyType: 'S',
});

export const tableDefinition = {
  partitionKey: 'pk',
  sortKey: 'sk',
  /**
   * Generic global secondary indexes over generic key attributes. Which list order each one
   * serves for which entity is declared by pattern name in lists.ts (users `byLastName` → gsi1,
   * areas `byName` → gsi1, …): the index partition key names the collection, so entities share
   * an index without meeting in it.
   */
  indexes: [
    stringIndex('gsi1'),
    stringIndex('gsi2'),
    stringIndex('gsi3'),
    stringIndex('gsi4'),
    stringIndex('gsi5'),
    { name: 'gsi6', partitionKey: 'gsi6pk', sortKey: 'gsi6sk', sortKeyType: 'N' },
  ] as readonly IndexDefinition[],
  /** What every index entry carries (INCLUDE projection); keys are always there. */
  indexProjection: listedAttributes,
  /** Epoch-seconds attribute; DynamoDB deletes expired items eventually, reads filter on it themselves. */
  ttlAttribute: 'expires_at',
  /** The outbox needs new images only: consumers read the event item that was inserted. */
  streamViewType: 'NEW_IMAGE',
} as const;
