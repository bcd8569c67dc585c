/**
 * The answers DynamoDB gives a request that meets a transaction in flight, in the shape the AWS
 * SDK v3 reads: its JSON protocol takes the error's name from `__type` (the part after `#`; the
 * `x-amzn-ErrorType` header only when `__type` is absent), copies the modelled members
 * (`CancellationReasons`) from the body by their exact names, and makes `error.message` of
 * `message` or `Message`, whichever is there (it deletes `error.Message`). The body spells the
 * message as DynamoDB does: `Message` in a TransactionCanceledException (as DynamoDB Local sends
 * its own), `message` in a TransactionConflictException.
 */
import { randomUUID } from 'node:crypto';

/** An answer written whole (status, headers, body), not streamed from the target. */
export interface BufferedAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const conflictMessage = 'Transaction is ongoing for the item';

function errorAnswer(type: string, members: Record<string, unknown>): BufferedAnswer {
  const body = JSON.stringify({ __type: `com.amazonaws.dynamodb.v20120810#${type}`, ...members });
  return {
    status: 400,
    headers: {
      'content-type': 'application/x-amz-json-1.0',
      'content-length': String(Buffer.byteLength(body)),
      'x-amzn-ErrorType': type,
      'x-amzn-RequestId': randomUUID(),
    },
    body,
  };
}

/** A transaction cancelled because some of its items are held: one reason per action, in order. */
export function transactionCancelled(conflicting: readonly boolean[]): BufferedAnswer {
  const reasons = conflicting.map((conflict) =>
    conflict ? { Code: 'TransactionConflict', Message: conflictMessage } : { Code: 'None' },
  );
  const codes = reasons.map((reason) => reason.Code).join(', ');
  return errorAnswer('TransactionCanceledException', {
    CancellationReasons: reasons,
    Message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${codes}]`,
  });
}

/** A PutItem, UpdateItem or DeleteItem on an item a transaction holds. */
export function transactionConflict(): BufferedAnswer {
  return errorAnswer('TransactionConflictException', { message: conflictMessage });
}

/** The target could not be reached (or answered nonsense): a 5xx, which the SDK retries like any server failure. */
export function proxyFailed(error: unknown): BufferedAnswer {
  return {
    ...errorAnswer('InternalServerError', { message: `semantics proxy: ${String(error)}` }),
    status: 502,
  };
}
