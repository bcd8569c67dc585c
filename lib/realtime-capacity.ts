/**
 * How many event-stream connections one container task holds, from its memory, and where the
 * service scales out (lib/realtime.ts). The figures are measured by `npm run bench:event-stream`
 * (docs/operations.md, "The event stream's memory"):
 *
 * - the container process at rest (modules, the identity provider, clients, caches) takes
 *   `restingMiB`;
 * - each idle connection takes `perConnectionKiB` (socket, HTTP parser, request and response,
 *   the subscriber's identity, filters and cursor);
 * - `headroomShare` of the task's memory stays free for everything that comes and goes: the
 *   collector's working room, events queued to slow readers, sign-ins.
 *
 * A task refuses the connection past its capacity with 503 and Retry-After (stream-hub.ts), so
 * it never runs out of memory; the scaling policy adds tasks when the tasks' average reaches
 * `scaleOutShare` of the capacity, so a refusal is the rare case of a burst faster than a task
 * starts.
 */
export const realtimeMemory = {
  restingMiB: 150,
  perConnectionKiB: 16,
  headroomShare: 0.25,
} as const;

/** Connections per task at which the scaling policy adds tasks. */
export const scaleOutShare = 0.6;

/** The connections a task of `memoryMiB` holds at most (FSM_STREAM_MAX_CONNECTIONS). */
export function connectionCapacity(memoryMiB: number): number {
  const { restingMiB, perConnectionKiB, headroomShare } = realtimeMemory;
  const free = memoryMiB * (1 - headroomShare) - restingMiB;
  if (free <= 0) throw new Error(`A task of ${memoryMiB} MiB has no room for event-stream connections.`);
  return Math.floor((free * 1024) / perConnectionKiB);
}

/** The average connections per task that the scaling policy keeps the service at. */
export function scalingTarget(memoryMiB: number): number {
  return Math.floor(connectionCapacity(memoryMiB) * scaleOutShare);
}
