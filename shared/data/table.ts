/**
 * The adapter over the single table: the only module that issues DynamoDB commands for
 * workspace data. It speaks in keys and plain records, translates SDK failures into
 * `DataError`s, and hides the item metadata (`pk`, `sk`, `entity`, `expires_at`).
 *
 * This is its public entry; each part lives in a file of its own:
 * - table-item.ts: keys, records, the item metadata added and stripped, expiry;
 * - table-reads.ts: one item, many by key, a partition, a count, the lazy walk of lists;
 * - table-write.ts: the kinds of write (`TableWrite`) and the conditioned operation of each;
 * - table-writes.ts: writes outside transactions (puts, batches, counters, `writeItem`);
 * - table-transactions.ts: `transactWrite` and the merge of its counter changes;
 * - table-failure.ts: SDK failures as DataErrors;
 * - client.ts: the DynamoDB client and the table's name.
 */
export { isUnavailable } from './table-failure.ts';
export { isIndexed, type Key, type RawItem, recordOf, type StoredRecord, storable } from './table-item.ts';
export { countPartition, getRecord, getRecords, queryItems, queryPartition } from './table-reads.ts';
export { mergedCounterWrites, transactWrite } from './table-transactions.ts';
export type { TableWrite } from './table-write.ts';
export {
  deleteRecord,
  discardRecords,
  incrementCounter,
  indexExistingItem,
  putRecord,
  putRecords,
  removeAttributesIf,
  writeItem,
} from './table-writes.ts';
export { withTalliesGathered } from './tally.ts';
export { type Rider, withRider } from './transaction-rider.ts';
