/**
 * The solver's work on one message of the solver queue (functions/optimizer-worker/handler.ts on
 * AWS, the local stack's queue poller locally): take the run up, plan, answer.
 *
 *   read the run ─► QUEUED: take it (RUNNING, conditional) ─► read cases, shifts, skills, tours
 *   ─► travel matrix ─► solve within the time limit ─► SUCCEEDED with the plan, or FAILED
 *
 * - A CANCELLED (or otherwise final) run is skipped. A run cancelled while it is solved keeps
 *   CANCELLED: the answer's write is conditional on the run still being RUNNING by this message.
 * - A run found RUNNING by the message that took it up is a redelivery: the receive that took it
 *   died (out of memory, the function's timeout, a crash), so the run fails (SOLVER_STOPPED).
 *   Found RUNNING by another message (a dispatch repeated), it is left to its solver unless it is
 *   past its deadline (then it fails as stalled, as a read would record it).
 * - Any failure on the way fails the run with its reason; the message is then settled. Only
 *   when the run cannot be written at all does the call reject (the queue hands it out again).
 */
import { placesOf, toVroomInput } from '../scheduling/planning-problem.ts';
import { toPlanResult, type VroomAnswer } from '../scheduling/planning-result.ts';
import type { TravelPort } from '../scheduling/travel.ts';
import type { RunPlan } from './optimization-run.record.ts';
import { settleIfStalled } from './optimization-run.service.ts';
import { runStore } from './optimization-run.store.ts';
import { PlanTooLargeError, readPlanningInput } from './planning-input.ts';
import { type Failure, failRun, succeedRun, takeRun } from './run-transitions.ts';
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
  const run = await runStore.of(workspaceId).getConsistent(runId);
  if (!run) return;
  if (run.status === 'RUNNING') {
    if (run.solver_message_id === receipt.messageId) {
      ports.log('solver message delivered again while its run is RUNNING: the earlier receive died', {
        runId,
      });
      await failRun(
        workspaceId,
        runId,
        { code: 'SOLVER_STOPPED', reason: crashedReason },
        (current) => current.solver_message_id === receipt.messageId,
      );
    } else {
      await settleIfStalled(workspaceId, run);
    }
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
  try {
    const plan = await planRun(workspaceId, taken, travel, ports.solver);
    await succeedRun(workspaceId, runId, receipt.messageId, plan.summary, plan.plan);
  } catch (error) {
    const failure = failureOf(error);
    if (failure.code === 'INTERNAL_ERROR')
      ports.log('optimization run failed', { runId, error: String(error) });
    await failRun(workspaceId, runId, failure, (current) => current.solver_message_id === receipt.messageId);
  }
}

async function planRun(
  workspaceId: string,
  run: Parameters<typeof readPlanningInput>[1],
  travel: TravelPort,
  solver: SolverPort,
) {
  const { problem, basis, places } = await readPlanningInput(workspaceId, run);
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
  // Nothing to search: every case is left out with its reason, no route is planned.
  const answer =
    jobs.length === 0 || vehicles.length === 0
      ? {
          output: { routes: [], unassigned: jobs.map((job) => ({ id: job.id as number })) } as VroomAnswer,
          solveMs: 0,
        }
      : await solver.solve({ input: translation.input, timeLimitSeconds: run.time_limit_seconds, seed: 1 });
  const result = toPlanResult(problem, translation, matrix, answer.output, answer.solveMs);
  const plan: RunPlan = {
    id: run.id,
    lock_version: 0,
    routes: result.routes,
    unassigned: result.unassigned,
    basis,
    places,
  };
  return { summary: result.summary, plan };
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
