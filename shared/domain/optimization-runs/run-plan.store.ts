/**
 * A run's plan as stored. A plan of 1,000 cases on 100 shifts (routes, cases left out, the
 * versions and places the run read) is well over DynamoDB's 400 KB item limit, so its JSON is cut
 * into parts of at most `maxPartBytes`, each an item of the run's own partition
 * (`T#<ws>#OPT_PLAN_PART#<run_id>`, sort key the zero-padded part number), and the OPT_PLAN item
 * of the run is a small header: how many parts, how many bytes.
 *
 * The success path (solver-job.ts): `writePlanParts` (idempotent puts, before the success), then
 * `planHeaderCreate` joins the transaction that moves the run to SUCCEEDED. Until that commits no
 * one reads the run as SUCCEEDED, so no one looks for its parts. When the success loses (the run
 * was cancelled or failed meanwhile) the solver removes the parts again (`discardPlanParts`), best
 * effort: a crash between the parts and the transaction, or a failed removal, leaves orphan parts
 * behind (no reader ever finds them: only a header names parts; nothing sweeps them today).
 *
 * Plans stored before parts existed are one OPT_PLAN item holding the whole plan: `readPlan`
 * reads both.
 */
import { keys } from '../../data/keys.ts';
import type { StoreScope } from '../../data/resource-store.ts';
import { discardRecords, getRecord, getRecords, putRecords, type TableWrite } from '../../data/table.ts';
import type { RunPlan } from './optimization-run.record.ts';
import { planStore } from './optimization-run.store.ts';

/** Bytes of plan JSON per part: with its keys and names an item stays well below 400 KB. */
export const maxPartBytes = 300 * 1024;

/** The OPT_PLAN item of a plan stored in parts. */
export interface PlanHeader {
  /** The run's id. */
  id: string;
  lock_version: number;
  part_count: number;
  /** UTF-8 bytes of the whole plan's JSON: a check that every part was read. */
  total_bytes: number;
}

const partEntity = 'optimization_run_plan_part';

const workspaceOf = (scope: StoreScope) => (typeof scope === 'string' ? scope : scope.workspaceId);

/**
 * `text` cut into pieces of at most `maxBytes` UTF-8 bytes each, never inside a character, so
 * each piece is a valid string and joining them gives `text` back.
 */
export function splitUtf8(text: string, maxBytes: number): string[] {
  // A character takes up to 4 bytes: a smaller piece could not hold one.
  if (maxBytes < 4) throw new RangeError('maxBytes must be at least 4');
  const bytes = Buffer.from(text, 'utf8');
  const pieces: string[] = [];
  let start = 0;
  while (start < bytes.length) {
    let end = Math.min(start + maxBytes, bytes.length);
    // Back off over continuation bytes (10xxxxxx): the piece ends before a character begins.
    while (end < bytes.length && ((bytes[end] as number) & 0xc0) === 0x80) end--;
    pieces.push(bytes.toString('utf8', start, end));
    start = end;
  }
  return pieces.length > 0 ? pieces : [''];
}

/** The header and the parts of a plan (pure). */
export function planParts(plan: RunPlan, maxBytes = maxPartBytes): { header: PlanHeader; parts: string[] } {
  const json = JSON.stringify(plan);
  const parts = splitUtf8(json, maxBytes);
  return {
    header: { id: plan.id, lock_version: 0, part_count: parts.length, total_bytes: Buffer.byteLength(json) },
    parts,
  };
}

/** The plan its parts make, in order (pure); fails when they are not the parts `header` names. */
export function planFromParts(header: PlanHeader, parts: readonly string[]): RunPlan {
  const json = parts.join('');
  if (parts.length !== header.part_count || Buffer.byteLength(json) !== header.total_bytes) {
    throw new Error(
      `The stored plan of run ${header.id} is incomplete: its parts do not add up to its header.`,
    );
  }
  return JSON.parse(json) as RunPlan;
}

const partKeys = (scope: StoreScope, header: PlanHeader) =>
  Array.from({ length: header.part_count }, (_, part) => keys.planPart(workspaceOf(scope), header.id, part));

/**
 * Puts the plan's parts (BatchWriteItem: 25 a call; unconditional, so writing them again is
 * harmless) and answers the header that the success transaction is to create.
 */
export async function writePlanParts(scope: StoreScope, plan: RunPlan): Promise<PlanHeader> {
  const { header, parts } = planParts(plan);
  await putRecords(
    parts.map((data, part) => ({
      key: keys.planPart(workspaceOf(scope), plan.id, part),
      entity: partEntity,
      record: { run_id: plan.id, part, data },
    })),
  );
  return header;
}

/** The header's insert, to join the transaction that moves the run to SUCCEEDED. */
export function planHeaderCreate(scope: StoreScope, header: PlanHeader): TableWrite {
  return {
    kind: 'create',
    key: planStore.of(scope).key(header.id),
    entity: 'optimization_run_plan',
    record: { ...header },
  };
}

/** Removes the parts of a plan whose success was not recorded (idempotent). */
export async function discardPlanParts(scope: StoreScope, header: PlanHeader): Promise<void> {
  await discardRecords(partKeys(scope, header));
}

function isHeader(record: Record<string, unknown>): boolean {
  return typeof record.part_count === 'number' && !Array.isArray(record.routes);
}

/**
 * The plan of a run, undefined when it has none (it did not succeed). Strongly consistent, so a
 * run just read as SUCCEEDED always finds its plan: the header (1 GetItem), then its parts, all
 * in one BatchGetItem (up to 100 parts, ~16 MB an answer: keys left unanswered are asked again).
 * The header says how many parts there are, so their keys are known and a part missing is an
 * error, never a shorter plan.
 */
export async function readPlan(scope: StoreScope, runId: string): Promise<RunPlan | undefined> {
  const stored = await getRecord(planStore.of(scope).key(runId), { consistent: true });
  if (!stored) return undefined;
  if (!isHeader(stored)) return stored as unknown as RunPlan;
  const header = stored as unknown as PlanHeader;
  const records = await getRecords(partKeys(scope, header), { consistent: true });
  const parts = records.flatMap((record) => (typeof record?.data === 'string' ? [record.data] : []));
  return planFromParts(header, parts);
}
