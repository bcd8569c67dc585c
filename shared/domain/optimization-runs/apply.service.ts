/**
 * Applying a run's plan on the request path (POST …/optimization-runs/{run_id}/apply,
 * API-DECISIONS.md "Dispatch you can trust"): the request is checked and recorded — the run's
 * `application` becomes APPLYING with its event optimization_run.apply_requested, in one
 * transaction — and answered 202 with the run. The writes are background work (apply-job.ts):
 * the outbox hands the request to the apply queue (apply-dispatch.consumer.ts), and the run shows
 * APPLIED, CONFLICT or FAILED when it is done. docs/scheduling.md tells the design.
 *
 * A run is applied at most once: while APPLYING or once APPLIED another apply is 409 (`data.reason`
 * apply_in_progress, run_applied); a run that is not SUCCEEDED is 409 run_not_succeeded. After
 * CONFLICT or FAILED an apply may be asked again: it checks every record again.
 */
import type { Actor } from '../../auth/actor.ts';
import { domainEvent } from '../../events/domain-event.ts';
import type { RunRecord } from './optimization-run.record.ts';
import { representRun, runEventObject, runResource } from './optimization-run.representation.ts';
import type { OptimizationRun } from './optimization-run.schema.ts';
import { settleIfStalled } from './optimization-run.service.ts';
import { runStore } from './optimization-run.store.ts';
import { OptimizationRunError } from './optimization-run-error.ts';
import { readPlan } from './run-plan.store.ts';
import { moveRun } from './run-transitions.ts';

const stateError = (reason: string, detail: string, status: string) =>
  new OptimizationRunError('conflict', { detail, data: { reason, status } });

/** Why the run cannot be applied now, or undefined when it can. */
function refusal(run: RunRecord): OptimizationRunError | undefined {
  if (run.status !== 'SUCCEEDED') {
    return stateError(
      'run_not_succeeded',
      `The run is ${run.status}: only a SUCCEEDED run has a plan.`,
      run.status,
    );
  }
  if (run.applied_at || run.application?.status === 'APPLIED') {
    return stateError('run_applied', 'The run was applied already; a run is applied once.', run.status);
  }
  if (run.application?.status === 'APPLYING') {
    return stateError(
      'apply_in_progress',
      'The run is being applied (application.status APPLYING); read the run to follow it.',
      run.status,
    );
  }
  return undefined;
}

export async function applyRun(ctx: Actor, id: string): Promise<OptimizationRun> {
  const runId = id.toLowerCase();
  const stored = await runStore.of(ctx).getConsistent(runId);
  if (!stored) throw new OptimizationRunError('not-found');
  const settled = await settleIfStalled(ctx, stored);
  const refused = refusal(settled);
  if (refused) throw refused;
  const { run, moved } = await moveRun(ctx, runId, {
    next: (current, now) =>
      refusal(current)
        ? undefined
        : {
            ...current,
            application: {
              status: 'APPLYING',
              attempt: (current.application?.attempt ?? 0) + 1,
              requested_at: now,
              requested_by: ctx.principal.id,
              request: { id: ctx.requestId, correlation_id: ctx.correlationId },
            },
          },
    event: (next) =>
      domainEvent(ctx, 'optimization_run.apply_requested', runResource(runId), runEventObject(next)),
  });
  if (!run) throw new OptimizationRunError('not-found');
  if (!moved)
    throw refusal(run) ?? stateError('apply_in_progress', 'The run kept changing; retry.', run.status);
  return representRun(run, await readPlan(ctx, runId));
}
