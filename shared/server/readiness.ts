/**
 * The readiness check (`GET /health/ready`, readiness.routes.ts): named probes of what a node
 * needs to serve, run together with a deadline each, the answer kept for a few seconds so a
 * load balancer's checks and curious callers cost the stores one probe per interval.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ProblemError, validationProblem } from '../http/problem.ts';
import { queryObjectFor } from '../http/query-input.ts';
import { parseQueryString } from '../http/query-string.ts';
import { logger } from '../observability/logger.ts';
import { readinessPath } from '../routes/groups/readiness.routes.ts';
import { problemOnly, writeResult } from './lambda-http-adapter.ts';

export interface ReadinessProbe {
  name: string;
  /** Resolves when the dependency answered; rejects (or outlives the deadline) when not. */
  check: () => Promise<void>;
}

export interface ReadinessReport {
  ready: boolean;
  checks: Record<string, 'ok' | 'failed'>;
}

export interface ReadinessOptions {
  /** How long an answer is reused. */
  cacheMs?: number;
  /** A probe slower than this failed. */
  deadlineMs?: number;
}

function withDeadline(check: () => Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([check(), late]).finally(() => clearTimeout(timer));
}

/** A check of `probes` that answers from its last run for `cacheMs`. */
export function readinessCheck(probes: readonly ReadinessProbe[], options: ReadinessOptions = {}) {
  const cacheMs = options.cacheMs ?? 5_000;
  const deadlineMs = options.deadlineMs ?? 2_000;
  let last: { at: number; report: Promise<ReadinessReport> } | undefined;
  const run = async (): Promise<ReadinessReport> => {
    const results = await Promise.allSettled(probes.map((probe) => withDeadline(probe.check, deadlineMs)));
    const checks: ReadinessReport['checks'] = {};
    results.forEach((result, i) => {
      const name = probes[i]?.name ?? String(i);
      checks[name] = result.status === 'fulfilled' ? 'ok' : 'failed';
      if (result.status === 'rejected') {
        logger.warn('readiness probe failed', { probe: name, error: String(result.reason) });
      }
    });
    return { ready: Object.values(checks).every((state) => state === 'ok'), checks };
  };
  return (): Promise<ReadinessReport> => {
    const now = Date.now();
    if (!last || now - last.at >= cacheMs) last = { at: now, report: run() };
    return last.report;
  };
}

/**
 * Answers `GET /health/ready` with a report: 200 when ready, else a 503 naming what failed. Like
 * every operation it takes GET only (405) and no query parameter (422 at `#/query/<name>`), so a
 * probe misconfigured with parameters is told, not silently answered.
 */
export async function answerReadiness(
  req: IncomingMessage,
  res: ServerResponse,
  report: () => Promise<ReadinessReport>,
): Promise<void> {
  if ((req.method ?? 'GET') !== 'GET') {
    throw new ProblemError('method-not-allowed', {
      detail: `${readinessPath} answers GET only.`,
      headers: { allow: 'GET' },
    });
  }
  const url = req.url ?? '';
  const { errors } = queryObjectFor(
    undefined,
    parseQueryString(url.includes('?') ? url.slice(url.indexOf('?') + 1) : ''),
  );
  if (errors.length > 0) throw validationProblem(errors);
  const { ready, checks } = await report();
  if (ready) {
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify({ status: 'ready', checks }));
    return;
  }
  const failed = Object.entries(checks)
    .filter(([, state]) => state === 'failed')
    .map(([name]) => name);
  const problem = new ProblemError('service-unavailable', {
    detail: `Not ready: ${failed.join(', ')} did not answer.`,
    headers: { 'retry-after': '5' },
  });
  writeResult(res, problemOnly(problem, readinessPath));
}
