/**
 * A one-screen summary of the metrics the local stack wrote (DATA_DIR/metrics.jsonl, embedded
 * metric format lines of shared/observability/metrics.ts): what the dashboard would show, as
 * text. `npm run metrics` prints it; so does `kill -USR2 <pid of npm start>`.
 */
import { readFile } from 'node:fs/promises';
import {
  httpMetrics,
  optimizerMetrics,
  streamMetrics,
  telemetryMetrics,
  webhookMetrics,
  workMetrics,
} from './metric-names.ts';

type Line = Record<string, unknown>;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
}

function tally<K>(into: Map<K, number[]>, key: K, value: number): void {
  const list = into.get(key) ?? [];
  list.push(value);
  into.set(key, list);
}

export function summarizeMetrics(lines: readonly Line[]): string {
  const operations = new Map<string, number[]>();
  const errors = new Map<string, number>();
  /** DynamoDB capacity units of an operation's requests, summed: [read, write]. */
  const units = new Map<string, [number, number]>();
  const counts = new Map<string, number[]>();
  /** Background handlers' DynamoDB units, summed: [invocations, read, write]. */
  const work = new Map<string, [number, number, number]>();
  let stream = { connections: 0, opened: 0, eventsSent: 0 };
  for (const line of lines) {
    if (typeof line[httpMetrics.requests] === 'number') {
      const key = String(line.operation);
      tally(operations, key, Number(line[httpMetrics.latency]));
      errors.set(key, (errors.get(key) ?? 0) + Number(line[httpMetrics.errors] ?? 0));
      const [read, write] = units.get(key) ?? [0, 0];
      units.set(key, [
        read + Number(line[httpMetrics.readUnits] ?? 0),
        write + Number(line[httpMetrics.writeUnits] ?? 0),
      ]);
    }
    if (typeof line.handler === 'string' && typeof line[workMetrics.readUnits] === 'number') {
      const [runs, read, write] = work.get(line.handler) ?? [0, 0, 0];
      work.set(line.handler, [
        runs + 1,
        read + Number(line[workMetrics.readUnits]),
        write + Number(line[workMetrics.writeUnits] ?? 0),
      ]);
    }
    for (const name of [webhookMetrics.deliveries, optimizerMetrics.runs, telemetryMetrics.reports]) {
      if (typeof line[name] === 'number') tally(counts, `${name} ${String(line.outcome)}`, 1);
    }
    if (typeof line[webhookMetrics.lag] === 'number')
      tally(counts, 'WebhookDeliveryLag ms', Number(line[webhookMetrics.lag]));
    if (typeof line[streamMetrics.connections] === 'number') {
      stream = {
        connections: Number(line[streamMetrics.connections]),
        opened: stream.opened + Number(line[streamMetrics.opened]),
        eventsSent: stream.eventsSent + Number(line[streamMetrics.eventsSent]),
      };
    }
  }
  const rows = [...operations]
    .sort((a, b) => b[1].length - a[1].length)
    .slice(0, 15)
    .map(
      ([operation, ms]) =>
        `${operation.padEnd(40)} ${String(ms.length).padStart(7)} ${String(errors.get(operation) ?? 0).padStart(6)} ` +
        `${percentile(ms, 0.5).toFixed(1).padStart(8)} ${percentile(ms, 0.99).toFixed(1).padStart(8)} ` +
        `${(units.get(operation)?.[0] ?? 0).toFixed(1).padStart(9)} ${(units.get(operation)?.[1] ?? 0).toFixed(1).padStart(9)}`,
    );
  const others = [...counts].map(([name, values]) =>
    name.endsWith(' ms')
      ? `${name.padEnd(40)} p50 ${percentile(values, 0.5).toFixed(0)}, p99 ${percentile(values, 0.99).toFixed(0)}`
      : `${name.padEnd(40)} ${values.length}`,
  );
  const workRows = [...work]
    .sort((a, b) => b[1][2] + b[1][1] - (a[1][2] + a[1][1]))
    .map(
      ([handler, [runs, read, write]]) =>
        `${handler.padEnd(40)} ${String(runs).padStart(7)} ${' '.repeat(24)} ${read.toFixed(1).padStart(9)} ${write.toFixed(1).padStart(9)}`,
    );
  return [
    `${'operation (top 15 by requests)'.padEnd(40)} ${'requests'.padStart(7)} ${'5xx'.padStart(6)} ` +
      `${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'read RU'.padStart(9)} ${'write WU'.padStart(9)}`,
    ...rows,
    ...(workRows.length > 0
      ? [
          '',
          `${'background handler'.padEnd(40)} ${'runs'.padStart(7)} ${' '.repeat(24)} ${'read RU'.padStart(9)} ${'write WU'.padStart(9)}`,
          ...workRows,
        ]
      : []),
    '',
    ...others,
    `${'event stream'.padEnd(40)} ${stream.connections} open, ${stream.opened} opened, ${stream.eventsSent} events sent`,
  ].join('\n');
}

/** The summary of a metrics file (missing: nothing recorded yet). */
export async function summarizeMetricsFile(file: string): Promise<string> {
  const text = await readFile(file, 'utf8').catch(() => '');
  const lines = text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Line);
  return `${lines.length} metric lines in ${file}\n${summarizeMetrics(lines)}`;
}
