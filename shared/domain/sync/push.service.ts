/**
 * POST /api/v2/sync/push (API-DECISIONS.md, "Offline sync for field apps"; docs/offline-sync.md,
 * "Push"). An installation's mutations apply one after another, in id order, each through the
 * REST operation it stands for (the port: same grants, validation, audit and events), and each
 * exactly once:
 *
 * - the installation's item (`last_mutation_id`, on its version) and the mutation's result commit
 *   in the transaction of the change itself (a rider, data/transaction-rider.ts), so a change and
 *   its record of having been applied exist together or not at all; a refused mutation, or one
 *   that changed nothing, records its result alone;
 * - an id at or below `last_mutation_id` answers its stored result (`duplicate`); a gap refuses
 *   the push before anything applies (409 `mutation_gap`);
 * - an update merges by field against `base_version` (field-merge.ts): the fields the server
 *   changed since then are known from the sync indexer's record mark (the version at which each
 *   field last changed), and a field changed on both sides keeps the server's value;
 * - a refusal (a 4xx of the operation) is that mutation's `rejected` result with its problem
 *   document, and the next mutations still apply.
 */
import type { Actor } from '../../auth/actor.ts';
import { DataError } from '../../data/data-error.ts';
import { type TableWrite, transactWrite, withRider, withTalliesGathered } from '../../data/table.ts';
import type { DomainEvent } from '../../events/domain-event.ts';
import { CommonDomainError } from '../common-error.ts';
import { withRecordId } from '../record-id.ts';
import { type FieldConflict, mergeFields } from './field-merge.ts';
import { pushOrder } from './mutation-order.ts';
import { type Installation, type StoredResult, type SyncStore, syncStore } from './sync.store.ts';
import type { SyncRecord } from './sync-records.ts';
import type { PushType } from './sync-subject.ts';

export type MutationOp = 'create' | 'update' | 'delete';

export interface Mutation {
  id: number;
  type: PushType;
  record_id: string;
  op: MutationOp;
  base_version?: number | undefined;
  data?: Record<string, unknown> | undefined;
  occurred_at?: string | undefined;
}

export type MutationStatus = 'applied' | 'merged' | 'duplicate' | 'rejected';

export interface MutationResult {
  id: number;
  status: MutationStatus;
  version?: number;
  conflicts?: FieldConflict[];
  problem?: Record<string, unknown>;
  /** A duplicate: the status the mutation got when it was applied (results are kept 30 days). */
  original_status?: Exclude<MutationStatus, 'duplicate'>;
}

export interface PushInput {
  installation_id: string;
  mutations: Mutation[];
}

export interface PushAnswer {
  last_mutation_id: number;
  results: MutationResult[];
}

/** What the operation answered: its status and body (a record, or a problem document). */
export interface PortAnswer {
  status: number;
  body: Record<string, unknown> | undefined;
}

/**
 * The REST operations a mutation stands for, as the caller (functions/sync: the operation groups'
 * own handlers, called in-process with the caller's token), and the record as stored.
 */
export interface MutationPort {
  send(request: {
    method: 'POST' | 'PATCH' | 'DELETE';
    type: PushType;
    id?: string;
    body?: unknown;
  }): Promise<PortAnswer>;
  /** The record as the caller may read it (GET), for a merge that writes nothing. */
  read(type: PushType, id: string): Promise<PortAnswer>;
  /** The stored record, strongly consistent (undefined: none). */
  current(type: PushType, id: string): Promise<SyncRecord | undefined>;
}

/** A push stopped by a test hook after k mutations, as a crash of the function would stop it. */
export class SimulatedPushCrash extends Error {
  override readonly name = 'SimulatedPushCrash';
}

/** A test hook (shared/local-stack/test-hooks.ts): stop this installation's push after k mutations. */
export type PushCrashHook = (
  installationId: string,
) => Promise<{ afterMutations: number; crashed(): Promise<void> } | undefined>;

/** How long a merge waits for the indexer to have seen the record's current version. */
const markWaitMs = 3000;
const mergeAttempts = 3;

export function pushMutations(
  ctx: Actor,
  input: PushInput,
  port: MutationPort,
  options: { crashHook?: PushCrashHook } = {},
): Promise<PushAnswer> {
  // The counters the mutations move are applied once, when the push ends (data/tally.ts).
  return withTalliesGathered(() => applyInOrder(ctx, input, port, options.crashHook));
}

async function applyInOrder(
  ctx: Actor,
  input: PushInput,
  port: MutationPort,
  crashHook: PushCrashHook | undefined,
): Promise<PushAnswer> {
  const userId = ctx.principal.id.toLowerCase();
  const crash = await crashHook?.(input.installation_id);
  let applied = 0;
  const store = syncStore(ctx.workspaceId);
  const results: MutationResult[] = [];
  let installation = await loadInstallation(store, userId, input.installation_id);
  const pending = [...input.mutations];
  while (pending.length > 0) {
    const order = pushOrder(
      installation.last_mutation_id,
      pending.map((mutation) => mutation.id),
    );
    if ('gap' in order) {
      throw new CommonDomainError('conflict', {
        detail:
          `Mutation ${order.gap.next} does not follow the last one applied (${order.gap.lastMutationId}): ` +
          `push again from mutation ${order.gap.lastMutationId + 1}.`,
        data: { reason: 'mutation_gap', last_mutation_id: order.gap.lastMutationId },
      });
    }
    const mutation = pending[0] as Mutation;
    const step = order.steps[0];
    if (step && 'replay' in step) {
      const [stored] = await store.results(userId, input.installation_id, [mutation.id]);
      results.push(duplicateOf(mutation.id, stored));
      pending.shift();
      continue;
    }
    const outcome = await applyOne(store, installation, mutation, port);
    if ('raced' in outcome) {
      // Another push of this installation moved it meanwhile: read it again and go on from there.
      installation = await loadInstallation(store, userId, input.installation_id);
      continue;
    }
    results.push(outcome.result);
    installation = outcome.installation;
    pending.shift();
    if (crash && ++applied >= crash.afterMutations) {
      await crash.crashed();
      throw new SimulatedPushCrash(`stopped after ${applied} mutations`);
    }
  }
  return { last_mutation_id: installation.last_mutation_id, results };
}

/** A replay's answer: the stored result again, its first status kept as `original_status`. */
function duplicateOf(id: number, stored: StoredResult | undefined): MutationResult {
  if (!stored) return { id, status: 'duplicate' };
  const { status, ...rest } = stored as unknown as MutationResult;
  return {
    ...rest,
    id,
    status: 'duplicate',
    original_status: status as Exclude<MutationStatus, 'duplicate'>,
  };
}

async function loadInstallation(store: SyncStore, userId: string, installationId: string) {
  return (
    (await store.installation(userId, installationId)) ?? {
      user_id: userId,
      installation_id: installationId,
      last_mutation_id: 0,
      lock_version: -1,
      created_at: new Date().toISOString(),
      updated_at: new Date().toISOString(),
    }
  );
}

/** The installation moved to `result` and the result kept: what commits with the change. */
function progressWrites(store: SyncStore, installation: Installation, result: MutationResult): TableWrite[] {
  const next: Installation = {
    ...installation,
    last_mutation_id: result.id,
    lock_version: installation.lock_version + 1,
    updated_at: new Date().toISOString(),
  };
  const key = store.installationKey(installation.user_id, installation.installation_id);
  return [
    installation.lock_version < 0
      ? { kind: 'create', key, entity: 'sync_installation', record: { ...next } }
      : {
          kind: 'replace',
          key,
          entity: 'sync_installation',
          record: { ...next },
          expectedVersion: installation.lock_version,
        },
    {
      kind: 'put',
      key: store.resultKey(installation.user_id, installation.installation_id, result.id),
      entity: 'sync_result',
      record: { ...result },
      expiresAt: store.resultExpiry(),
    },
  ];
}

const advanced = (installation: Installation, id: number): Installation => ({
  ...installation,
  last_mutation_id: id,
  lock_version: installation.lock_version + 1,
});

type Outcome = { result: MutationResult; installation: Installation } | { raced: true };

async function applyOne(
  store: SyncStore,
  installation: Installation,
  mutation: Mutation,
  port: MutationPort,
): Promise<Outcome> {
  for (let attempt = 1; ; attempt++) {
    const plan = await planOf(store, mutation, port);
    if ('done' in plan) return record(store, installation, plan.done);
    let carried: MutationResult | undefined;
    const rider = {
      spent: false,
      writes(events: readonly DomainEvent[]) {
        const event = events.find((e) => e.resource.id === mutation.record_id) ?? events[0];
        const version = (event?.data.object as { lock_version?: unknown } | undefined)?.lock_version;
        carried = { ...plan.result, ...(typeof version === 'number' ? { version } : {}) };
        return progressWrites(store, installation, carried);
      },
    };
    const run = () => withRider(rider, () => port.send(plan.request));
    const answer = await (mutation.op === 'create' ? withRecordId(mutation.record_id, run) : run());
    if (rider.spent && carried) {
      return { result: carried, installation: advanced(installation, mutation.id) };
    }
    if (answer.status < 300) {
      const version = typeof answer.body?.lock_version === 'number' ? answer.body.lock_version : undefined;
      return record(store, installation, { ...plan.result, ...(version !== undefined ? { version } : {}) });
    }
    const current = await store.installation(installation.user_id, installation.installation_id);
    if ((current?.lock_version ?? -1) !== installation.lock_version) return { raced: true };
    // The record changed between the merge and the write: merge again against it.
    if (
      answer.status === 409 &&
      answer.body?.type?.toString().endsWith('/version-conflict') &&
      attempt < mergeAttempts
    )
      continue;
    return record(store, installation, {
      id: mutation.id,
      status: 'rejected',
      ...(answer.body ? { problem: answer.body } : {}),
    });
  }
}

/** Records a result that no change carried (a refusal, nothing to write). */
async function record(
  store: SyncStore,
  installation: Installation,
  result: MutationResult,
): Promise<Outcome> {
  try {
    await transactWrite(progressWrites(store, installation, result));
  } catch (error) {
    if (
      error instanceof DataError &&
      ['version-conflict', 'already-exists', 'not-found'].includes(error.code)
    ) {
      return { raced: true };
    }
    throw error;
  }
  return { result, installation: advanced(installation, result.id) };
}

type Plan =
  /** Answered without a write. */
  | { done: MutationResult }
  | {
      request: { method: 'POST' | 'PATCH' | 'DELETE'; type: PushType; id?: string; body?: unknown };
      result: MutationResult;
    };

async function planOf(store: SyncStore, mutation: Mutation, port: MutationPort): Promise<Plan> {
  const { id, type, record_id: recordId, op } = mutation;
  if (op === 'create') {
    return {
      request: { method: 'POST', type, body: mutation.data ?? {} },
      result: { id, status: 'applied' },
    };
  }
  if (op === 'delete') {
    return { request: { method: 'DELETE', type, id: recordId }, result: { id, status: 'applied' } };
  }
  const server = await port.current(type, recordId);
  const currentVersion = typeof server?.lock_version === 'number' ? server.lock_version : undefined;
  const base = mutation.base_version;
  const data = mutation.data ?? {};
  if (!server || currentVersion === undefined || base === undefined || base >= currentVersion) {
    // Nothing changed on the server since the device read it (or nothing to merge against):
    // the operation itself answers (a missing record: its 404; a version the server never
    // had: applied over the current one, whose lock_version the body carries).
    const body = currentVersion === undefined ? data : { ...data, lock_version: currentVersion };
    return { request: { method: 'PATCH', type, id: recordId, body }, result: { id, status: 'applied' } };
  }
  const changed = await fieldsChangedSince(store, type, recordId, base, currentVersion, Object.keys(data));
  const merge = mergeFields(data, server, changed);
  const conflicts = merge.conflicts.length > 0 ? { conflicts: merge.conflicts } : {};
  if (Object.keys(merge.apply).length === 0) {
    // Nothing of the device's applies: the caller must still be one who may read the record.
    const read = await port.read(type, recordId);
    if (read.status >= 300)
      return { done: { id, status: 'rejected', ...(read.body ? { problem: read.body } : {}) } };
    return { done: { id, status: 'merged', version: currentVersion, ...conflicts } };
  }
  return {
    request: { method: 'PATCH', type, id: recordId, body: { ...merge.apply, lock_version: currentVersion } },
    result: { id, status: 'merged', ...conflicts },
  };
}

/**
 * The fields the server changed after `base`: from the record's mark, once the indexer has seen
 * the current version (it follows the stream, within about a second). If it has not within a few
 * seconds, every field the device sent counts as changed: the server's values win, and nothing a
 * dispatcher wrote is ever lost to a device's older copy.
 */
async function fieldsChangedSince(
  store: SyncStore,
  type: PushType,
  id: string,
  base: number,
  current: number,
  sent: readonly string[],
): Promise<Set<string>> {
  const deadline = Date.now() + markWaitMs;
  for (;;) {
    const [mark] = await store.marks([{ type, id }]);
    if (mark && mark.version >= current) {
      // Changes before what the mark knows (a record older than the indexer) count as changed.
      if (base < (mark.complete_after ?? -1)) return new Set(sent);
      return new Set(
        Object.entries(mark.fields).flatMap(([field, version]) => (version > base ? [field] : [])),
      );
    }
    if (Date.now() >= deadline) return new Set(sent);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
