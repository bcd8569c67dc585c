/**
 * The one error type of the data layer. Adapters translate SDK failures into these codes, so
 * nothing above shared/data imports the AWS SDK or knows DynamoDB's exception names.
 */
export type DataErrorCode =
  /** The item to change or delete does not exist (or belongs to another workspace). */
  | 'not-found'
  /** The stored version differs from the expected one (optimistic concurrency). */
  | 'version-conflict'
  /** A uniqueness guard or a create-if-absent condition failed. */
  | 'already-exists'
  /** The store could not be reached or throttled us past our retries. */
  | 'unavailable'
  /** A list page lies beyond what one request may read (list-read.ts `readBound`). */
  | 'too-costly';

export class DataError extends Error {
  readonly code: DataErrorCode;
  /** version-conflict: the lock_version stored when the write was refused, when the store said. */
  readonly storedVersion: number | undefined;

  constructor(code: DataErrorCode, message: string, options?: { cause?: unknown; storedVersion?: number }) {
    super(message, options);
    this.name = 'DataError';
    this.code = code;
    this.storedVersion = options?.storedVersion;
  }
}

/**
 * The lock_version of an item a refused condition returned (ReturnValuesOnConditionCheckFailure),
 * in either of the SDK's forms: plain (document client) or marshalled (`{ N: "3" }`).
 */
export function storedVersionOf(item: unknown): number | undefined {
  const value = (item as { lock_version?: unknown } | undefined)?.lock_version;
  const raw = value && typeof value === 'object' ? (value as { N?: unknown }).N : value;
  const version = Number(raw);
  return raw !== undefined && Number.isInteger(version) ? version : undefined;
}
