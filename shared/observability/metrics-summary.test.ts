import { describe, expect, it } from 'vitest';
import { summarizeMetrics } from './metrics-summary.ts';

describe('Module: metrics-summary', () => {
  it('summarises requests by operation with their 5xx, latency and DynamoDB units, and the other metrics by outcome', () => {
    // Prepare
    const lines = [
      {
        operation: 'areas.get',
        Requests: 1,
        Errors: 0,
        Latency: 2,
        DynamoDBReadUnits: 0.5,
        DynamoDBWriteUnits: 0,
      },
      {
        operation: 'areas.get',
        Requests: 1,
        Errors: 1,
        Latency: 40,
        DynamoDBReadUnits: 1,
        DynamoDBWriteUnits: 2,
      },
      { outcome: 'delivered', WebhookDeliveries: 1, WebhookDeliveryLag: 120 },
      { outcome: 'accepted', TelemetryReports: 1 },
      { StreamConnections: 3, StreamConnectionsOpened: 2, StreamEventsSent: 9 },
      { handler: 'stream-processor-records', DynamoDBReadUnits: 1, DynamoDBWriteUnits: 4 },
      { handler: 'stream-processor-records', DynamoDBReadUnits: 0.5, DynamoDBWriteUnits: 2 },
    ];

    // Act
    const summary = summarizeMetrics(lines);

    // Assess
    expect(summary).toMatch(/areas\.get\s+2\s+1\s+40\.0\s+40\.0\s+1\.5\s+2\.0/);
    expect(summary).toMatch(/WebhookDeliveries delivered\s+1/);
    expect(summary).toMatch(/TelemetryReports accepted\s+1/);
    expect(summary).toContain('3 open, 2 opened, 9 events sent');
    expect(summary).toMatch(/stream-processor-records\s+2\s+1\.5\s+6\.0/);
  });
});
