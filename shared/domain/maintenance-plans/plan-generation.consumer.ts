/**
 * Prompt generation after a plan is created or edited: a consumer of the outbox's `records`
 * group. On maintenance_plan.created / .updated it brings that plan's cases in line
 * (plan-generator.ts `generatePlan`), so a user sees them within a second or two of the answer
 * instead of at the next scheduled run, and the request itself writes no case.
 *
 * A failure is logged and not thrown: the batch it would hold back carries the audit log, and the
 * scheduled run redoes whatever is missing (generation is idempotent by its claims). The events
 * of one plan in a batch are handled once, for the plan as it is now.
 */
import type { EventConsumer } from '../../events/consumers.ts';
import { logger } from '../../observability/logger.ts';
import { generatePlan } from './plan-generator.ts';

const planEvents = new Set(['maintenance_plan.created', 'maintenance_plan.updated']);

export const planGenerationConsumer: EventConsumer = {
  name: 'maintenance-plan-generation',
  async handleBatch(events) {
    const plans = new Map<string, { workspaceId: string; planId: string }>();
    for (const event of events) {
      if (!planEvents.has(event.type)) continue;
      plans.set(`${event.workspace_id}/${event.resource.id}`, {
        workspaceId: event.workspace_id,
        planId: event.resource.id,
      });
    }
    for (const { workspaceId, planId } of plans.values()) {
      try {
        await generatePlan(workspaceId, planId);
      } catch (error) {
        logger.warn('maintenance plan generation failed; the scheduled run retries it', {
          workspace_id: workspaceId,
          maintenance_plan_id: planId,
          error: error instanceof Error ? error.message : String(error),
        });
      }
    }
  },
};
