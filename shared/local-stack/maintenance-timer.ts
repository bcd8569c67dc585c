/**
 * The local stack's stand-in for the scheduled maintenance generation of AWS
 * (lib/maintenance-generation.ts): the same code (plan-generator.ts `generateAll`) on a timer,
 * every FSM_MAINTENANCE_INTERVAL_MS (default a minute; 0 turns it off). One run at a time: a tick
 * while a run is still going is skipped, as nothing would be gained by a second generator (though
 * one would do no harm: cases are claimed by their occurrence).
 */
import { generateAll } from '../domain/maintenance-plans/plan-generator.ts';
import { measureWork } from '../observability/metrics.ts';

export interface MaintenanceTimer {
  stop(): Promise<void>;
}

export function startMaintenanceTimer(
  log: (message: string, details?: Record<string, unknown>) => void,
): MaintenanceTimer {
  const intervalMs = Number(process.env.FSM_MAINTENANCE_INTERVAL_MS ?? 60_000);
  if (!(intervalMs > 0)) return { stop: async () => {} };
  let running: Promise<void> | undefined;
  const tick = () => {
    if (running) return;
    running = measureWork('maintenance-generator', () =>
      generateAll({ concurrency: 4 }, (planId, error) =>
        log('maintenance plan generation failed', {
          maintenance_plan_id: planId,
          error: error instanceof Error ? error.message : String(error),
        }),
      ),
    )
      .then(() => undefined)
      .catch((error: unknown) =>
        log('maintenance generation run failed', {
          error: error instanceof Error ? error.message : String(error),
        }),
      )
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
