/**
 * Lambda of the service-level detector's scheduled rule (lib/sla-detector.ts): once a minute, the
 * cases whose due_by (or its at-risk lead) came get their sla_status written
 * (shared/domain/cases/sla-detector.ts). A failed run is only logged: the cursor did not move past
 * what it missed, so the next minute's run settles it, and EventBridge's own retries would only
 * queue a second run behind it.
 */
import { type DetectionReport, detectServiceLevels } from '../../shared/domain/cases/sla-detector.ts';
import { observedWorker } from '../../shared/observability/lambda-observability.ts';
import { logger } from '../../shared/observability/logger.ts';

const log = (message: string, details?: Record<string, unknown>) => logger.warn(message, details ?? {});

export const handler = observedWorker('sla-detector', async (): Promise<DetectionReport> => {
  // Judged at the clock, not at the rule's scheduled time: a late invocation settles everything
  // that came due up to now.
  const report = await detectServiceLevels({ log });
  if (report.failed > 0) log('service levels: cases left for the next run', { ...report });
  return report;
});
