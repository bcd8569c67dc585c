/**
 * What an operator reads per operation, from the metric lines the running service writes
 * (embedded metric format, DATA_DIR/metrics.jsonl locally, the log group on AWS): requests,
 * latency and the DynamoDB capacity units each operation consumed.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { call, tokenFor } from '../support/api.ts';

type MetricLine = Record<string, unknown> & { operation?: string };

let admin: string;

beforeAll(async () => {
  admin = await tokenFor('acme-admin');
});

/**
 * The metric lines written so far with `key` = `value` (an operation, a background handler);
 * they reach the file within 200 ms.
 */
async function linesOf(
  value: string,
  wanted: (line: MetricLine) => boolean,
  key = 'operation',
): Promise<MetricLine[]> {
  const file = join(inject('dataDir'), 'metrics.jsonl');
  for (let attempt = 0; attempt < 50; attempt++) {
    const text = await readFile(file, 'utf8').catch(() => '');
    const lines = text
      .split('\n')
      .filter((line) => line.includes(`"${key}":"${value}"`))
      .map((line) => JSON.parse(line) as MetricLine);
    if (lines.some(wanted)) return lines;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return [];
}

describe('Operation metrics', () => {
  it('count the DynamoDB capacity an operation consumed: write units for a create, read units for a get', async () => {
    const created = await call('POST', '/api/v2/tags', {
      token: admin,
      body: { name: `metered-${Date.now()}`, color: '#336699' },
    });
    expect(created.status).toBe(201);
    const read = await call('GET', `/api/v2/tags/${created.body.id}`, { token: admin });
    expect(read.status).toBe(200);

    const creates = await linesOf('tags.create', (line) => Number(line.DynamoDBWriteUnits) > 0);
    expect(creates.some((line) => Number(line.DynamoDBWriteUnits) > 0)).toBe(true);
    const gets = await linesOf('tags.get', (line) => Number(line.DynamoDBReadUnits) > 0);
    expect(gets.some((line) => Number(line.DynamoDBReadUnits) > 0 && line.DynamoDBWriteUnits === 0)).toBe(
      true,
    );
  });

  it('count the DynamoDB capacity of background work: the outbox records a write with its audit entry', async () => {
    const created = await call('POST', '/api/v2/tags', {
      token: admin,
      body: { name: `audited-${Date.now()}`, color: '#663399' },
    });
    expect(created.status).toBe(201);

    const records = await linesOf(
      'stream-processor-records',
      (line) => Number(line.DynamoDBWriteUnits) > 0,
      'handler',
    );
    expect(records.some((line) => Number(line.DynamoDBWriteUnits) > 0)).toBe(true);
  });

  it('record zero units for an operation that does not touch the table', async () => {
    const health = await call('GET', '/health');
    expect(health.status).toBe(200);
    const lines = await linesOf('platform.health', () => true);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(line.DynamoDBReadUnits).toBe(0);
      expect(line.DynamoDBWriteUnits).toBe(0);
    }
  });
});
