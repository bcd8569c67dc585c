/**
 * The event stream's route. Not part of the Lambda route table (route-table.ts): it is served by
 * the container (bin/serve-container.ts) behind the load balancer that CloudFront routes
 * `/api/v2/events/stream` to, and by `npm start` on the same origin. The OpenAPI document
 * publishes it with the other routes.
 */
import * as z from 'zod';
import type { RouteSpec } from '../../http/route-spec.ts';
import { streamKinds } from '../../realtime/stream-kinds.ts';

export const eventStreamPath = '/api/v2/events/stream';

export const StreamQuery = z.object({
  lastEventId: z
    .string()
    .max(64)
    .optional()
    .meta({
      description:
        'The id of the last event received (also accepted as the Last-Event-ID header, which EventSource ' +
        'clients send on reconnect). Events after it are replayed first, from a durable per-workspace log (a ' +
        'week, at most 10,000 events). An unknown or too old id is no error: RESYNC_REQUIRED:V1 comes first, ' +
        'and the client must resync through REST.',
    }),
});

export const StreamEnvelopeSchema = z
  .object({
    kind: z.enum(streamKinds as [string, ...string[]]).meta({ description: 'Also the SSE event name.' }),
    eventId: z.string().meta({
      description: 'UUIDv7 of the event; also the `id:` line (not on HEARTBEAT:V1 and RESYNC_REQUIRED:V1).',
    }),
    timestamp: z.iso.datetime().meta({ description: 'UTC time the backend recorded the change.' }),
    tenantId: z.uuid(),
    businessId: z.string().meta({
      description:
        '`case:<id>`, `tour:<id>`, `vehicle:<id>`, `area:<id>` or `optimization_run:<id>`; empty on control ' +
        'messages.',
    }),
    caseId: z.uuid().optional(),
    caseData: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({ description: 'The case as GET /api/v2/cases/{case_id} shows it.' }),
    externalId: z
      .string()
      .optional()
      .meta({ description: 'The new external id; omitted when it was removed.' }),
    previousExternalId: z
      .string()
      .optional()
      .meta({ description: 'The external id before; omitted when there was none.' }),
    tourId: z.uuid().optional(),
    tourData: z.record(z.string(), z.unknown()).optional(),
    vehicleId: z.uuid().optional(),
    location: z.record(z.string(), z.unknown()).optional(),
    areaId: z.uuid().optional(),
    optimizationRunId: z.uuid().optional(),
    optimizationRunData: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({
        description:
          'OPTIMIZATION_RUN_UPDATED:V1: the run as GET /api/v2/scheduling/optimization-runs/{run_id} shows it, ' +
          'without `result` (its `summary` is there once SUCCEEDED).',
      }),
    waitingTime: z
      .string()
      .optional()
      .meta({ description: 'The new waiting time; omitted when it was cleared.' }),
    previousWaitingTime: z
      .string()
      .optional()
      .meta({ description: 'The waiting time before; omitted when there was none.' }),
  })
  .meta({
    id: 'StreamEnvelope',
    description: 'The `data:` line of one message (JSON). Unknown keys must be ignored.',
  });

export const streamRoutes = [
  {
    operationId: 'events.stream',
    group: 'events',
    tags: ['Events'],
    auth: 'bearer',
    method: 'GET',
    path: eventStreamPath,
    summary: 'Subscribe to the event stream (server-sent events)',
    description:
      "A `text/event-stream` of the workspace's live operations: each message is `event: <kind>`, `id: <eventId>` " +
      'and `data: <envelope>`. Kinds: CASE_CREATED:V1, CASE_UPDATED:V1, CASE_EXTERNAL_ID_UPDATED:V1 (with ' +
      'CASE_UPDATED:V1), CASE_COMMENT_ADDED:V1 (a comment on a case: caseId, caseData, commentId, commentData; ' +
      'needs comments:read too), TOUR_CREATED:V1, TOUR_UPDATED:V1, TOUR_DELETED:V1, VEHICLE_LOCATION_UPDATED:V1 ' +
      '(deprecated), AREA_WAITING_TIME_UPDATED:V1, OPTIMIZATION_RUN_UPDATED:V1 (every move of an optimization ' +
      "run's status: created, RUNNING, SUCCEEDED, FAILED, CANCELLED, applied; optimizationRunId and " +
      'optimizationRunData; needs scheduling:read); HEARTBEAT:V1 about every 30 s; RESYNC_REQUIRED:V1 (beyond ' +
      "the spec) when a replay cannot be complete. Only events of the caller's workspace. Who sees what: a kind " +
      'needs the read grant of its resource (cases:read, tours:read, vehicles:read, areas:read, scheduling:read); a caller whose ' +
      'roles are only technician and/or driver sees case events of cases assigned to them and tour events of ' +
      'their own tours. The server ends every connection after 90 s; reconnect with a current token (EventSource ' +
      'clients send Last-Event-ID). At most 5 concurrent connections per user or service account (per node): ' +
      'the 6th is 429 too-many-requests. A node that holds all the connections its memory allows answers 503 ' +
      'service-unavailable with Retry-After before holding anything for the new one: reconnect after it (more ' +
      'nodes start as the count grows).',
    examples: {
      query: 'lastEventId=01936b2f-0a1b-7c2d-8e3f-4a5b6c7d8e9f',
      response: {
        kind: 'CASE_UPDATED:V1',
        eventId: '01936b2f-0a1b-7c2d-8e3f-4a5b6c7d8e9f',
        timestamp: '2026-06-11T14:02:37.120Z',
        tenantId: '01936b2e-0000-7000-8000-00000000a1b2',
        businessId: 'case:01936b2e-7c4a-7d21-9f0e-3b5c2a1d4e6f',
        caseId: '01936b2e-7c4a-7d21-9f0e-3b5c2a1d4e6f',
        caseData: {
          id: '01936b2e-7c4a-7d21-9f0e-3b5c2a1d4e6f',
          title: 'Boiler service',
          status: 'SCHEDULED',
        },
      },
    },
    query: StreamQuery,
    errors: [429],
    success: {
      status: 200,
      description: 'The stream; headers are sent at once.',
      contentType: 'text/event-stream',
      schema: StreamEnvelopeSchema,
    },
  },
] as const satisfies readonly RouteSpec[];
