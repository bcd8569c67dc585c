/**
 * The metrics' lines as CloudWatch reads them (embedded metric format): the namespace, the
 * dimension sets each metric is published under, the units and the values, one line per record.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  httpMetrics,
  metricsNamespace,
  optimizerMetrics,
  statusClassOf,
  streamMetrics,
  telemetryMetrics,
  webhookMetrics,
  workMetrics,
} from './metric-names.ts';
import {
  measureWork,
  recordOptimizationRun,
  recordRequest,
  recordStreamReport,
  recordTelemetryReport,
  recordWebhookAttempt,
  writeMetricsTo,
} from './metrics.ts';

interface EmfLine {
  _aws: {
    Timestamp: number;
    CloudWatchMetrics: {
      Namespace: string;
      Dimensions: string[][];
      Metrics: { Name: string; Unit: string }[];
    }[];
  };
  [key: string]: unknown;
}

let lines: EmfLine[];

beforeEach(() => {
  lines = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
    return true;
  });
});

afterEach(() => {
  vi.restoreAllMocks();
});

function only(): EmfLine {
  expect(lines).toHaveLength(1);
  return lines[0]!;
}

function directive(line: EmfLine) {
  const [first] = line._aws.CloudWatchMetrics;
  expect(first?.Namespace).toBe(metricsNamespace);
  return first!;
}

describe('Module: metrics', () => {
  describe('Method: recordRequest', () => {
    it.each([
      { status: 200, statusClass: '2xx', errors: 0 },
      { status: 404, statusClass: '4xx', errors: 0 },
      { status: 503, statusClass: '5xx', errors: 1 },
    ])('counts a $status answer as one request of class $statusClass with $errors errors', (c) => {
      // Act
      recordRequest({
        group: 'areas',
        operation: 'areas.get',
        status: c.status,
        ms: 3.25,
        readUnits: 1.5,
        writeUnits: 0,
      });

      // Assess
      const line = only();
      const { Dimensions, Metrics } = directive(line);
      expect(Dimensions).toEqual([
        ['service', 'group', 'operation', 'statusClass'],
        ['service', 'group'],
        ['service', 'group', 'operation'],
      ]);
      expect(Metrics).toEqual([
        { Name: httpMetrics.requests, Unit: 'Count' },
        { Name: httpMetrics.errors, Unit: 'Count' },
        { Name: httpMetrics.latency, Unit: 'Milliseconds' },
        { Name: httpMetrics.readUnits, Unit: 'Count' },
        { Name: httpMetrics.writeUnits, Unit: 'Count' },
      ]);
      expect(line).toMatchObject({
        service: expect.any(String),
        group: 'areas',
        operation: 'areas.get',
        statusClass: c.statusClass,
        [httpMetrics.requests]: 1,
        [httpMetrics.errors]: c.errors,
        [httpMetrics.latency]: 3.25,
        [httpMetrics.readUnits]: 1.5,
        [httpMetrics.writeUnits]: 0,
      });
    });

    it('writes one line per request, each with only its own dimensions', () => {
      // Act
      recordRequest({
        group: 'areas',
        operation: 'areas.get',
        status: 200,
        ms: 1,
        readUnits: 0,
        writeUnits: 0,
      });
      recordRequest({
        group: 'cases',
        operation: 'cases.create',
        status: 201,
        ms: 2,
        readUnits: 0,
        writeUnits: 0,
      });

      // Assess
      expect(lines.map((line) => [line.group, line.operation, line[httpMetrics.requests]])).toEqual([
        ['areas', 'areas.get', 1],
        ['cases', 'cases.create', 1],
      ]);
    });

    it('writes a request of a kind already seen with its own values and time, the same shape', () => {
      // Arrange
      vi.useFakeTimers({ now: 1_700_000_000_000 });
      recordRequest({
        group: 'tags',
        operation: 'tags.get',
        status: 200,
        ms: 1,
        readUnits: 0,
        writeUnits: 0,
      });

      // Act
      vi.setSystemTime(1_700_000_060_000);
      recordRequest({
        group: 'tags',
        operation: 'tags.get',
        status: 200,
        ms: 7.5,
        readUnits: 0,
        writeUnits: 0,
      });
      recordRequest({
        group: 'tags',
        operation: 'tags.get',
        status: 500,
        ms: 9,
        readUnits: 2,
        writeUnits: 3,
      });
      recordRequest({
        group: 'tags',
        operation: 'tags.get',
        status: 503,
        ms: 4,
        readUnits: 0,
        writeUnits: 0,
      });
      vi.useRealTimers();

      // Assess
      expect(lines).toHaveLength(4);
      const [first, second, third, fourth] = lines as [EmfLine, EmfLine, EmfLine, EmfLine];
      expect(second._aws.CloudWatchMetrics).toEqual(first._aws.CloudWatchMetrics);
      expect(fourth._aws.CloudWatchMetrics).toEqual(third._aws.CloudWatchMetrics);
      expect(lines.map((line) => line._aws.Timestamp)).toEqual([
        1_700_000_000_000, 1_700_000_060_000, 1_700_000_060_000, 1_700_000_060_000,
      ]);
      expect(
        lines.map((line) => [
          line.statusClass,
          line[httpMetrics.requests],
          line[httpMetrics.errors],
          line[httpMetrics.latency],
          line[httpMetrics.readUnits],
          line[httpMetrics.writeUnits],
        ]),
      ).toEqual([
        ['2xx', 1, 0, 1, 0, 0],
        ['2xx', 1, 0, 7.5, 0, 0],
        ['5xx', 1, 1, 9, 2, 3],
        ['5xx', 1, 1, 4, 0, 0],
      ]);
    });
  });

  describe('Method: recordWebhookAttempt', () => {
    it('counts an attempt by outcome and attempt number, with its lag', () => {
      // Act
      recordWebhookAttempt({ outcome: 'retrying', attempt: 3, lagMs: 1200 });

      // Assess
      const line = only();
      expect(directive(line).Dimensions).toEqual([
        ['service', 'outcome', 'attempt'],
        ['service', 'outcome'],
      ]);
      expect(line).toMatchObject({
        outcome: 'retrying',
        attempt: '3',
        [webhookMetrics.deliveries]: 1,
        [webhookMetrics.lag]: 1200,
      });
    });

    it('counts attempts past the tenth together and leaves out an unknown lag', () => {
      // Act
      recordWebhookAttempt({ outcome: 'exhausted', attempt: 14 });

      // Assess
      const line = only();
      expect(line.attempt).toBe('10+');
      expect(directive(line).Metrics).toEqual([{ Name: webhookMetrics.deliveries, Unit: 'Count' }]);
    });
  });

  describe('Method: recordStreamReport', () => {
    it('reports open connections, connections opened and events sent of the node', () => {
      // Act
      recordStreamReport({ connections: 12, opened: 3, eventsSent: 240 });

      // Assess
      const line = only();
      expect(directive(line).Dimensions).toEqual([['service']]);
      expect(line).toMatchObject({
        [streamMetrics.connections]: 12,
        [streamMetrics.opened]: 3,
        [streamMetrics.eventsSent]: 240,
      });
    });
  });

  describe('Method: recordOptimizationRun', () => {
    it('counts a run by outcome with its duration', () => {
      // Act
      recordOptimizationRun({ outcome: 'succeeded', durationMs: 10_500 });

      // Assess
      const line = only();
      expect(directive(line).Dimensions).toEqual([['service', 'outcome']]);
      expect(line).toMatchObject({
        outcome: 'succeeded',
        [optimizerMetrics.runs]: 1,
        [optimizerMetrics.duration]: 10_500,
      });
    });

    it('counts a run cancelled while it waited without a duration', () => {
      // Act
      recordOptimizationRun({ outcome: 'cancelled' });

      // Assess
      const line = only();
      expect(line).toMatchObject({ outcome: 'cancelled', [optimizerMetrics.runs]: 1 });
      expect(line).not.toHaveProperty(optimizerMetrics.duration);
      expect(directive(line).Metrics.map((metric: { Name: string }) => metric.Name)).toEqual([
        optimizerMetrics.runs,
      ]);
    });
  });

  describe('Method: measureWork', () => {
    it('records the DynamoDB units of one piece of background work by handler, also when it fails', async () => {
      // Act
      await measureWork('webhook-delivery', async () => 'done');
      await expect(
        measureWork('stream-processor-live', async () => {
          throw new Error('batch failed');
        }),
      ).rejects.toThrow('batch failed');

      // Assess
      expect(lines).toHaveLength(2);
      for (const line of lines) {
        expect(directive(line).Dimensions).toEqual([['service', 'handler']]);
        expect(line).toMatchObject({ [workMetrics.readUnits]: 0, [workMetrics.writeUnits]: 0 });
      }
      expect(lines.map((line) => line.handler)).toEqual(['webhook-delivery', 'stream-processor-live']);
    });
  });

  describe('Method: recordTelemetryReport', () => {
    it.each(['accepted', 'refused'] as const)('counts a report %s', (outcome) => {
      // Act
      recordTelemetryReport(outcome);

      // Assess
      expect(only()).toMatchObject({ outcome, [telemetryMetrics.reports]: 1 });
    });
  });

  it('maps statuses to their class', () => {
    expect([200, 204, 301, 400, 429, 500, 503].map(statusClassOf)).toEqual([
      '2xx',
      '2xx',
      '3xx',
      '4xx',
      '4xx',
      '5xx',
      '5xx',
    ]);
  });
});

describe('Module: metrics, to a file', () => {
  it('writes the records to the file together, every one of them by the time it is closed', async () => {
    // Prepare
    const dir = await mkdtemp(join(tmpdir(), 'fsm-metrics-'));
    const path = join(dir, 'metrics.jsonl');
    await writeMetricsTo(path);

    // Act
    for (let i = 0; i < 5; i++)
      recordRequest({
        group: 'areas',
        operation: 'areas.get',
        status: 200,
        ms: i,
        readUnits: 0,
        writeUnits: 0,
      });
    recordTelemetryReport('accepted');
    await writeMetricsTo(undefined);

    // Assess
    const written = (await readFile(path, 'utf8')).split('\n').filter(Boolean);
    expect(written.map((line) => JSON.parse(line)[httpMetrics.latency] ?? 'telemetry')).toEqual([
      0,
      1,
      2,
      3,
      4,
      'telemetry',
    ]);
    expect(lines).toEqual([]);
    await rm(dir, { recursive: true, force: true });
  });
});
