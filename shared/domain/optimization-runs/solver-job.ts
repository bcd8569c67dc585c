/**
 * The solver's work on one message of the solver queue (functions/optimizer-worker/handler.ts on
 * AWS, the local stack's queue poller locally): take the run up, plan, answer.
 *
 *   read the run ─► QUEUED: take it (RUNNING, conditional) ─► read cases, shifts, skills, tours
 *   ─► travel matrix ─► mark the search's start ─► solve within the time limit
 *   ─► the plan's parts, then SUCCEEDED with its header; or FAILED
 *
 * - A run past its deadline (run-deadlines.ts) is failed first, as a read would record it: a
 *   QUEUED run no solver took up within the queue timeout is not started late (NOT_STARTED).
 * - A CANCELLED (or otherwise final) run is skipped. A run cancelled while it is solved keeps
 *   CANCELLED: the answer's write is conditional on the run still being RUNNING by this message,
 *   and the plan's parts written for it are removed again.
 * - A run found RUNNING within its deadline is left to the receive that took it, whatever the
 *   message: SQS may hand one message out twice while its first receive is alive (at-least-once
 *   delivery), and a dispatch may be repeated. A receive that died is never waited for long: SQS
 *   hands its message out again only after the visibility timeout, which outlasts every deadline
 *   (lib/solver-settings.ts), so that receive finds the run stalled and fails it.
 * - Any failure on the way fails the run with its reason; the message is then settled. Only
 *   when the run cannot be written at all does the call reject (the queue hands it out again).
 */
import { placesOf, toVroomInput } from '../scheduling/planning-problem.ts';
import { toPlanResult, type VroomAnswer } from '../scheduling/planning-result.ts';
import type { TravelPort } from '../scheduling/travel.ts';
import { planLate } from './late-work.ts';
import type { RunPlan, RunRecord } from './optimization-run.record.ts';
import { settleIfStalled } from './optimization-run.service.ts';
import { runStore } from './optimization-run.store.ts';
import { preparationBudgetSeconds } from './optimization-run-statuses.ts';
import { type PlanningInput, PlanTooLargeError, readPlanningInput } from './planning-input.ts';
import { readRepairInput } from './repair-input.ts';
import { repairPlan } from './repair-plan.ts';
import { discardPlanParts, type PlanHeader, writePlanParts } from './run-plan.store.ts';
import { type Failure, failRun, markSolving, succeedRun, takeRun } from './run-transitions.ts';
import type { SolverMessage } from './solver-dispatch.consumer.ts';
import { OptimizerInputError, type SolverPort, SolverStoppedError } from './solver-port.ts';

export interface SolverJobPorts {
  solver: SolverPort;
  travelFor(workspaceId: string): Promise<TravelPort>;
  log(message: string, details?: Record<string, unknown>): void;
}

/** The receive a message is: its id stays the same across redeliveries. */
export interface Receipt {
  messageId: string;
}

export const crashedReason =
  'The solver stopped while solving this run (it ran out of memory, timed out or crashed); create a new run.';

/** The travel provider could not answer. */
class TravelUnavailableError extends Error {}

/** Reading the records and the matrix outlasted the preparation budget. */
class PreparationTooLongError extends Error {}

export const preparationTooLongReason =
  `Reading the records and the travel matrix took longer than the ${preparationBudgetSeconds} s a run ` +
  'has before its search; create a new run (fewer cases or shifts make a smaller matrix).';

function parseMessage(body: string): SolverMessage | undefined {
  try {
    const message = JSON.parse(body) as Partial<SolverMessage>;
    return typeof message.workspace_id === 'string' && typeof message.run_id === 'string'
      ? (message as SolverMessage)
      : undefined;
  } catch {
    return undefined;
  }
}

export function failureOf(error: unknown): Failure {
  if (error instanceof PlanTooLargeError) return { code: 'TOO_LARGE', reason: error.message };
  if (error instanceof TravelUnavailableError) return { code: 'TRAVEL_UNAVAILABLE', reason: error.message };
  if (error instanceof PreparationTooLongError)
    return { code: 'SOLVER_STOPPED', reason: preparationTooLongReason };
  if (error instanceof OptimizerInputError) {
    return { code: 'INVALID_PROBLEM', reason: `The optimizer refused the problem: ${error.message}` };
  }
  if (error instanceof SolverStoppedError)
    return { code: 'SOLVER_STOPPED', reason: `${error.message} ${crashedReason}` };
  return {
    code: 'INTERNAL_ERROR',
    reason: 'The run failed unexpectedly; the service logs have the details.',
  };
}

export async function processSolverMessage(
  body: string,
  receipt: Receipt,
  ports: SolverJobPorts,
): Promise<void> {
  const message = parseMessage(body);
  if (!message) {
    ports.log('solver message unreadable; dropped', { messageId: receipt.messageId });
    return;
  }
  const { workspace_id: workspaceId, run_id: runId } = message;
  const stored = await runStore.of(workspaceId).getConsistent(runId);
  if (!stored) return;
  const run = await settleIfStalled(workspaceId, stored);
  if (run.status === 'RUNNING') {
    ports.log(
      run.solver_message_id === receipt.messageId
        ? 'solver message delivered again while its run is RUNNING within its deadline: left to the receive that took it'
        : 'solver message for a run another message took up: left to its solver',
      { runId, messageId: receipt.messageId },
    );
    return;
  }
  if (run.status !== 'QUEUED') return;
  const travel = await ports.travelFor(workspaceId);
  const { run: taken, moved } = await takeRun(
    workspaceId,
    runId,
    receipt.messageId,
    travel.model === 'amazon-location' ? 'amazon-location' : 'great-circle',
  );
  if (!moved || !taken) return;
  await solveTakenRun(workspaceId, taken, receipt.messageId, travel, ports);
}

/** Plans a run this receive took, and records the answer: SUCCEEDED with its plan, or FAILED. */
async function solveTakenRun(
  workspaceId: string,
  run: RunRecord,
  messageId: string,
  travel: TravelPort,
  ports: SolverJobPorts,
): Promise<void> {
  const ours = (current: RunRecord) => current.solver_message_id === messageId;
  let header: PlanHeader | undefined;
  // Parts of a plan whose success was not recorded name nothing: removed, best effort (a crash
  // before this leaves them behind; run-plan.store.ts).
  const discardParts = async (after: RunRecord | undefined) => {
    if (!header || after?.status === 'SUCCEEDED') return;
    await discardPlanParts(workspaceId, header).catch((error: unknown) =>
      ports.log('plan parts of a run that did not succeed left behind', {
        runId: run.id,
        error: String(error),
      }),
    );
  };
  try {
    const planned = await planRun(workspaceId, run, messageId, travel, ports.solver);
    // Cancelled, or failed by a read, while preparing: nothing to solve.
    if (!planned) return;
    header = await writePlanParts(workspaceId, planned.plan);
    const { run: after } = await succeedRun(workspaceId, run.id, messageId, planned.summary, header);
    await discardParts(after);
  } catch (error) {
    const failure = failureOf(error);
    if (failure.code === 'INTERNAL_ERROR')
      ports.log('optimization run failed', { runId: run.id, error: String(error) });
    const { run: after } = await failRun(workspaceId, run.id, failure, ours);
    await discardParts(after);
  }
}

/**
 * The plan of a run: its input, the travel matrix, then (once the search's start is recorded)
 * the search. Undefined when the run stopped being this receive's while it was prepared.
 */
async function planRun(
  workspaceId: string,
  run: RunRecord,
  messageId: string,
  travel: TravelPort,
  solver: SolverPort,
): Promise<{ summary: ReturnType<typeof toPlanResult>['summary']; plan: RunPlan } | undefined> {
  const read = run.mode === 'REPAIR' ? readRepairInput : readPlanningInput;
  const { problem, basis, places, current } = await read(workspaceId, run);
  let matrix: Awaited<ReturnType<TravelPort['matrix']>>;
  try {
    matrix = await travel.matrix(placesOf(problem));
  } catch (error) {
    throw new TravelUnavailableError(
      `The travel provider (${travel.model}) could not answer: ${String(error)}`,
    );
  }
  const translation = toVroomInput(problem, matrix);
  const { jobs, vehicles } = translation.input;
  let answer: { output: VroomAnswer; solveMs: number };
  let changes: { reordered: number; reassigned: number } | undefined;
  if (current) {
    // A REPAIR run: the fewest changes to the day as it stands (repair-plan.ts), no search.
    const started = performance.now();
    const repaired = repairPlan(translation.input, currentByVehicle(translation, current), matrix);
    answer = { output: repaired.answer, solveMs: performance.now() - started };
    changes = { reordered: repaired.reordered, reassigned: repaired.reassigned };
  } else if (jobs.length === 0 || vehicles.length === 0) {
    // Nothing to search: every case is left out with its reason, no route is planned.
    answer = {
      output: { routes: [], unassigned: jobs.map((job) => ({ id: job.id as number })) } as VroomAnswer,
      solveMs: 0,
    };
  } else {
    // The deadline counts from here on: the search gets its whole time limit.
    const mark = await markSolving(workspaceId, run.id, messageId);
    if (mark.outcome === 'gone') return undefined;
    if (mark.outcome === 'late') throw new PreparationTooLongError();
    answer = await solver.solve({
      input: translation.input,
      timeLimitSeconds: run.time_limit_seconds,
      seed: 1,
    });
  }
  // Due work the plan could not finish by its due date: as early as it can be, reported late.
  const output = planLate(translation.input, translation.late, answer.output, matrix);
  const result = toPlanResult(problem, translation, matrix, output, answer.solveMs);
  const plan: RunPlan = {
    id: run.id,
    lock_version: 0,
    routes: result.routes,
    unassigned: result.unassigned,
    basis,
    places,
  };
  return { summary: { ...result.summary, ...changes }, plan };
}

/** Each vehicle's remaining stops as job ids, in their current order. */
function currentByVehicle(
  translation: ReturnType<typeof toVroomInput>,
  current: NonNullable<PlanningInput['current']>,
): number[][] {
  const jobOf = new Map(translation.caseOfJob.map((caseId, index) => [caseId, index + 1]));
  return translation.shiftOfVehicle.map((shift) =>
    (current[shift.id] ?? []).flatMap((caseId) => {
      const job = jobOf.get(caseId);
      return job === undefined ? [] : [job];
    }),
  );
}

export const deadLetterReason =
  'The solver could not take the run up: its message failed repeatedly and went to the dead-letter queue.';

/**
 * A message of the solver's dead-letter queue: its receives kept failing (the table unreachable,
 * a crash before the run was taken up). Its run, if still QUEUED or RUNNING, fails; the queue's
 * alarm tells an operator either way.
 */
export async function processDeadSolverMessage(body: string, log: SolverJobPorts['log']): Promise<void> {
  const message = parseMessage(body);
  if (!message) return;
  log('solver message dead-lettered; failing its run', { runId: message.run_id });
  await failRun(message.workspace_id, message.run_id, { code: 'SOLVER_STOPPED', reason: deadLetterReason });
}
