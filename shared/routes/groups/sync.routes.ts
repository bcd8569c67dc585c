/**
 * Routes of the `sync` operation group (one Lambda): offline sync for field apps (API-DECISIONS.md,
 * "Offline sync for field apps"; docs/offline-sync.md).
 */
import {
  SyncPullPageSchema,
  SyncPullRequestSchema,
  SyncPushRequestSchema,
  SyncPushResultSchema,
} from '../../domain/sync/sync.schema.ts';
import { pullLimits, pushLimits } from '../../domain/sync/sync-limits.ts';
import type { RouteSpec } from '../../http/route-spec.ts';

const common = { group: 'sync', tags: ['Offline sync'], auth: 'bearer' } as const;

const ids = {
  anna: '019d2e01-1111-7a10-9b6e-2f8c4d1a0b31',
  boiler: '019d3a02-0b1e-7c44-8a9f-1e2d3c4b5a61',
  meter: '019d3a02-7d3a-7f10-b2c4-5a6b7c8d9e02',
  tour: '019d4b22-5e10-7c10-8d21-1e2f3a4b5c77',
  comment: '019d5c01-2a3b-7c4d-8e5f-6a7b8c9d0e11',
  newComment: '019d5c09-0a1b-7c2d-8e3f-4a5b6c7d8e21',
};

const cursor = 'eyJ3b3Jrc3BhY2VJZCI6IjAxOWMuLi4iLCJzZXEiOjQyfQ.3q2-7wTm8dFzE0y4QvXbGQ9pW1lK7nR2sT5uV8xY0zA';

const scope =
  'Your **scope**: the cases assigned to you whose scheduled_start falls from 7 days back to 14 days ahead ' +
  '(UTC days, from the day of the pull; bookings and applied runs assign a tour’s cases to its driver), the ' +
  'comments on those cases, the tours you drive and your shifts dated in those days, the workspace’s ' +
  'areas, tags and skills whole (an app picks from them offline), and the custom-object instances of the types ' +
  'you read (`type` custom_object, `data` as GET reads the instance), each type only as your grants read it (your ' +
  'own shifts always). A record that leaves the scope (reassigned, rescheduled out of the window, the window ' +
  'moving on) comes as `evict` — with the comments of an evicted case —, one that enters it comes whole, with ' +
  'the comments of an entering case.';

const pull =
  `${scope}\n\n` +
  '**Pull**: without `cursor` (or with `reset: true`) a full pull, page after page, of everything in scope; ' +
  'with the `cursor` of the last page, what changed since: each record as it is now (`upsert`, the whole ' +
  'record as its REST GET reads it), `evict` (left your scope, still on the server) or `delete` (gone). The ' +
  'cursor is a position in the service’s own change log, never a clock, opaque and signed: changes are never ' +
  'skipped for where a cursor stood when they committed, and a record that changed several times since comes ' +
  'once. An incremental pull costs what changed in your scope, never the size of the scope or of the workspace.\n\n' +
  `Pages: at most \`limit\` changes (1..${pullLimits.maxLimit}, default ${pullLimits.defaultLimit}) and 1 MB; ` +
  'a case comes with its comments on one page. `has_more: true`: pull again now with `cursor`. Deletes and ' +
  'evicts are kept 30 days: a cursor older than that, or one issued to another user or installation, is 409 ' +
  'resource-conflict with `data.reason` `resync_required` — pull from scratch (no cursor) and keep the ' +
  'mutations not yet pushed. A cursor this service did not issue is 422 at `#/cursor`. `last_mutation_id`: ' +
  'the last of this installation’s mutations the server applied.\n\n' +
  'Changes committed while a full pull pages through come again in the next pull (an upsert twice is ' +
  'harmless). Writes reach the change log from the table’s stream, within about a second.';

const push =
  'Applies what the technician did offline, in order, each mutation through the REST operation it stands for ' +
  '(types case, comment, tour, shift, area, tag, skill; `create`: POST of the type’s collection with `data` as body and `record_id` as the new record’s id, a ' +
  'UUIDv7 the app made; `update`: PATCH of the record with `data` as merge patch; `delete`: DELETE), with the ' +
  'same grants, validation, audit log, events and webhooks as REST.\n\n' +
  `Up to ${pushLimits.maxMutations} mutations; \`id\`s increase by one per installation, starting at 1. Each ` +
  'mutation is applied at most once, whatever the retries: its result is stored in the transaction of its ' +
  'change. An `id` at or below `last_mutation_id` answers its stored result again with status `duplicate`, ' +
  'its first status in `original_status` (an answer lost on the way: push again, nothing applies twice); an `id` after a gap is 409 ' +
  'resource-conflict with `data.reason` `mutation_gap` and `data.last_mutation_id` (nothing of that push ' +
  'applied: push again from the next id).\n\n' +
  '**Merge by field** against `base_version` (the lock_version of the copy the app edited): fields only the ' +
  'device changed apply (`merged`, or `applied` when the server did not change the record since); a field ' +
  'both changed keeps the server’s value and is listed in `conflicts` (`{field, yours, theirs}`). A business ' +
  'refusal (a 4xx of the operation: a missing grant, invalid data, a missing record) is `rejected` with its ' +
  'problem document, and the mutations after it still apply. Pull afterwards for the records as they are now.';

export const syncRoutes = [
  {
    ...common,
    operationId: 'sync.pull',
    method: 'POST',
    path: '/api/v2/sync/pull',
    summary: 'Pull your scope’s changes',
    description: pull,
    examples: {
      request: { installation_id: 'anna-phone-1', cursor, limit: 200 },
      response: {
        cursor,
        has_more: false,
        changes: [
          {
            type: 'case',
            id: ids.boiler,
            op: 'upsert',
            version: 4,
            data: {
              id: ids.boiler,
              title: 'Annual boiler service',
              status: 'SCHEDULED',
              priority: 'NORMAL',
              assignee_id: ids.anna,
              scheduled_start: '2026-06-16T10:05:00.000Z',
              scheduled_end: '2026-06-16T11:05:00.000Z',
              duration: 'PT1H',
              schedule_lock: 'NONE',
              lock_version: 4,
              created_at: '2026-06-10T08:00:00.000Z',
              updated_at: '2026-06-15T16:40:00.000Z',
            },
          },
          { type: 'case', id: ids.meter, op: 'evict', version: 7 },
          { type: 'comment', id: ids.comment, op: 'evict', version: 0 },
          { type: 'tour', id: ids.tour, op: 'delete' },
        ],
        last_mutation_id: 17,
      },
    },
    body: SyncPullRequestSchema,
    errors: [409],
    success: { status: 200, description: 'A page of changes.', schema: SyncPullPageSchema },
  },
  {
    ...common,
    operationId: 'sync.push',
    method: 'POST',
    path: '/api/v2/sync/push',
    summary: 'Push what was done offline',
    description: push,
    examples: {
      request: {
        installation_id: 'anna-phone-1',
        mutations: [
          {
            id: 18,
            type: 'case',
            record_id: ids.boiler,
            op: 'update',
            base_version: 4,
            data: { status: 'DONE' },
            occurred_at: '2026-06-16T11:02:00Z',
          },
          {
            id: 19,
            type: 'comment',
            record_id: ids.newComment,
            op: 'create',
            data: {
              target_type: 'core:case',
              target_id: ids.boiler,
              body_markdown: 'Burner cleaned, pressure 1.6 bar.',
            },
            occurred_at: '2026-06-16T11:03:00Z',
          },
        ],
      },
      response: {
        last_mutation_id: 19,
        results: [
          { id: 18, status: 'merged', version: 6 },
          { id: 19, status: 'applied', version: 0 },
        ],
      },
    },
    body: SyncPushRequestSchema,
    errors: [409],
    success: {
      status: 200,
      description: 'The result of each mutation, in order.',
      schema: SyncPushResultSchema,
    },
  },
] as const satisfies readonly RouteSpec[];
