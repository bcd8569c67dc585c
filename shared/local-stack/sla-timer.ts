/**
 * The service-level detector locally: the same run as the scheduled function on AWS
 * (functions/sla-detector, shared/domain/cases/sla-detector.ts), on a timer of `npm start`.
 * FSM_SLA_DETECTOR_PERIOD_MS (default 60,000, EventBridge's one minute) is the period: the tests
 * set a few seconds so a breach they wait for comes quickly. Runs never overlap: the next one is
 * timed from the end of the last.
 */
import { detectServiceLevels } from '../domain/cases/sla-detector.ts';
import { logger } from '../observability/logger.ts';
import { measureWork } from '../observability/metrics.ts';

export interface SlaTimer {
  stop(): Promise<void>;
}

const periodMs = () => Math.max(100, Number(process.env.FSM_SLA_DETECTOR_PERIOD_MS ?? 60_000));

export function startSlaTimer(): SlaTimer {
  const log = (message: string, details?: Record<string, unknown>) => logger.warn(message, details ?? {});
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    running = measureWork('sla-detector', () => detectServiceLevels({ log }))
      .catch((error: unknown) =>
        log('service levels: the detector run failed; the next one tries again', { error }),
      )
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, periodMs());
      });
  };
  timer = setTimeout(tick, periodMs());
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
