/**
 * The scheduled maintenance generation on AWS (an EventBridge rule, lib/maintenance-generation.ts):
 * keeps every active maintenance plan's horizon filled with one case per occurrence
 * (shared/domain/maintenance-plans/plan-generator.ts). It stops taking up plans a minute before
 * the function's timeout; the next run goes on from each plan's cursor. A plan that fails is
 * logged and retried by the next run; a failure of the run itself throws, and EventBridge's next
 * invocation is the retry (generation is idempotent by its occurrence claims).
 */
import { generateAll } from '../../shared/domain/maintenance-plans/plan-generator.ts';
import { observedWorker } from '../../shared/observability/lambda-observability.ts';
import { logger } from '../../shared/observability/logger.ts';

/** Time kept back from the function's timeout, so the run ends by itself. */
const reserveMs = 60_000;

export const handler = observedWorker(
  'maintenance-generator',
  async (_event: unknown, context): Promise<void> => {
    const remaining = context.getRemainingTimeInMillis();
    const report = await generateAll(
      { deadline: Date.now() + Math.max(10_000, remaining - reserveMs), concurrency: 16 },
      (planId, error) =>
        logger.warn('maintenance plan generation failed', {
          maintenance_plan_id: planId,
          error: error instanceof Error ? error.message : String(error),
        }),
    );
    logger.info('maintenance plans generated', { ...report });
  },
);
