/** The stream poller's log: what its parts report, and how they describe a failure. */
export type PollerLog = (message: string, details?: Record<string, unknown>) => void;

export function describeError(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}
