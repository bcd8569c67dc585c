/**
 * A process-local signal that this process has just written to the table (`dynamo()`'s write
 * calls, after DynamoDB answered). The local stack's stream pollers listen, so a write is read off
 * the stream at once rather than at the next poll, and an idle stack polls slowly; on AWS nobody
 * listens (a Lambda event-source mapping is told nothing and polls the stream itself).
 */
const listeners = new Set<() => void>();

/** Calls `listener` after every table write of this process; returns the unsubscribe. */
export function onTableWrite(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function tableWritten(): void {
  for (const listener of listeners) {
    try {
      listener();
    } catch {
      // A listener's failure is its own; the write succeeded.
    }
  }
}
