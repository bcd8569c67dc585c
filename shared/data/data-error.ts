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
  | 'unavailable';

export class DataError extends Error {
  readonly code: DataErrorCode;

  constructor(code: DataErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DataError';
    this.code = code;
  }
}
