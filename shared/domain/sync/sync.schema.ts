/**
 * Offline sync's bodies (API-DECISIONS.md, "Offline sync for field apps"): POST /api/v2/sync/pull
 * and POST /api/v2/sync/push. Published schema names: SyncPull, SyncPullPage,
 * CreateSyncPush, SyncPushResult.
 */
import * as z from 'zod';
import { dateTime } from '../../schema/fields.ts';
import { pullLimits, pushLimits } from './sync-limits.ts';
import { pushTypes, syncTypes } from './sync-subject.ts';

const installationId = () =>
  z
    .string()
    .regex(/^[A-Za-z0-9._:-]{1,128}$/)
    .meta({
      description:
        'The app installation (made by the app once, e.g. a UUID; 1..128 letters, digits, `.`, `_`, `:`, `-`). ' +
        'Cursors and mutation ids belong to one user and one installation.',
    });

const uuidV7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export const SyncPullRequestSchema = z
  .object({
    installation_id: installationId(),
    cursor: z
      .string()
      .max(4096)
      .optional()
      .meta({ description: 'The `cursor` of the last page pulled; none for a full pull.' }),
    limit: z
      .int()
      .min(1)
      .max(pullLimits.maxLimit)
      .optional()
      .meta({
        description: `Changes per page, 1..${pullLimits.maxLimit} (default ${pullLimits.defaultLimit}).`,
      }),
    reset: z.boolean().optional().meta({ description: 'true: a full pull whatever the cursor.' }),
  })
  .meta({ id: 'SyncPull' });

const SyncChangeSchema = z
  .object({
    type: z.enum(syncTypes).meta({ description: 'The record type.' }),
    id: z.uuid(),
    op: z.enum(['upsert', 'delete', 'evict']).meta({
      description:
        '`upsert`: keep `data` (the record as its REST GET reads it); `delete`: the record is gone; `evict`: it ' +
        'left your scope (still on the server): drop it from the device. An evict may name a record the device ' +
        'never held.',
    }),
    version: z.int().optional().meta({ description: 'The record’s lock_version; absent for a delete.' }),
    data: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({ description: 'Upserts only: the whole record.' }),
  })
  .meta({ id: 'SyncChange' });

export const SyncPullPageSchema = z
  .object({
    cursor: z.string().meta({ description: 'Opaque and signed: send it with the next pull.' }),
    has_more: z.boolean().meta({ description: 'true: pull again now with `cursor`.' }),
    changes: z.array(SyncChangeSchema),
    last_mutation_id: z.int().min(0).meta({
      description:
        'The last mutation of this installation the server applied: drop your pending ones up to it.',
    }),
  })
  .meta({ id: 'SyncPullPage' });

const MutationSchema = z
  .object({
    id: z.int().min(1).meta({ description: 'Increasing by one per installation, from 1.' }),
    type: z
      .enum(pushTypes)
      .meta({ description: 'The record type (custom-object instances are pulled, not pushed).' }),
    record_id: z.uuid().meta({ description: 'The record; for `create`, the id the app made (a UUIDv7).' }),
    op: z.enum(['create', 'update', 'delete']),
    base_version: z.int().min(0).optional().meta({
      description: '`update`: the lock_version of the copy the app edited; fields merge against it.',
    }),
    data: z.record(z.string(), z.unknown()).optional().meta({
      description: '`create`: the body of the create; `update`: the fields changed (a merge patch).',
    }),
    occurred_at: dateTime()
      .optional()
      .meta({ description: 'When the technician made the change on the device.' }),
  })
  .check((ctx) => {
    if (ctx.value.op === 'create' && !uuidV7.test(ctx.value.record_id)) {
      ctx.issues.push({
        code: 'custom',
        input: ctx.value.record_id,
        path: ['record_id'],
        message: 'a create names the id the app made: a UUIDv7',
      });
    }
  });

export const SyncPushRequestSchema = z
  .object({
    installation_id: installationId(),
    mutations: z.array(MutationSchema).min(1).max(pushLimits.maxMutations),
  })
  .check((ctx) => {
    const { mutations } = ctx.value;
    if (!Array.isArray(mutations)) return;
    mutations.forEach((mutation, index) => {
      const before = mutations[index - 1];
      if (index > 0 && before && typeof mutation?.id === 'number' && mutation.id <= before.id) {
        ctx.issues.push({
          code: 'custom',
          input: mutation.id,
          path: ['mutations', index, 'id'],
          message: 'mutation ids must increase within a push',
        });
      }
    });
  })
  .meta({ id: 'CreateSyncPush' });

const ConflictSchema = z.object({
  field: z.string(),
  yours: z.unknown().meta({ description: 'The value the device sent (not applied).' }),
  theirs: z.unknown().meta({ description: 'The server’s value, which stays.' }),
});

export const SyncPushResultSchema = z
  .object({
    last_mutation_id: z.int().min(0),
    results: z.array(
      z.object({
        id: z.int(),
        status: z.enum(['applied', 'merged', 'duplicate', 'rejected']).meta({
          description:
            '`applied`: as sent; `merged`: applied by field over server changes made since base_version (see ' +
            '`conflicts`); `duplicate`: applied before, its stored result again; `rejected`: refused (see `problem`).',
        }),
        version: z.int().optional().meta({ description: 'The record’s lock_version after the mutation.' }),
        conflicts: z.array(ConflictSchema).optional(),
        problem: z.record(z.string(), z.unknown()).optional().meta({
          description: 'Rejected: the problem document the REST operation answered (RFC 9457).',
        }),
        original_status: z
          .enum(['applied', 'merged', 'rejected'])
          .optional()
          .meta({
            description:
              'Duplicates: the status the mutation got when it was first pushed (absent once its result, kept 30 ' +
              'days, is gone).',
          }),
      }),
    ),
  })
  .meta({ id: 'SyncPushResult' });
