import { describe, expect, it } from 'vitest';
import { solverDispatcher } from '../domain/optimization-runs/solver-dispatch.consumer.ts';
import type { DomainEvent } from '../events/domain-event.ts';
import { solverEntries } from './solver-queue.ts';

const trace = 'Root=1-5f84c7a1-3f4a5b6c7d8e9f0a1b2c3d4e;Parent=53995c3f42cd8ad8;Sampled=1';

function created(runId: string, withTrace: boolean): DomainEvent {
  return {
    type: 'optimization_run.created',
    workspace_id: 'w-1',
    resource: { type: 'optimization_run', id: runId },
    ...(withTrace ? { trace } : {}),
  } as unknown as DomainEvent;
}

describe('the solver queue', () => {
  it('hands the trace of the request that created a run to the solver as AWSTraceHeader, not in the body', async () => {
    const sent: unknown[] = [];
    await solverDispatcher(async (messages) => {
      sent.push(...solverEntries(messages));
    }).handleBatch([created('run-1', true), created('run-2', false)]);

    expect(sent).toEqual([
      {
        Id: '0',
        MessageBody: JSON.stringify({ v: 1, workspace_id: 'w-1', run_id: 'run-1' }),
        MessageSystemAttributes: { AWSTraceHeader: { DataType: 'String', StringValue: trace } },
      },
      { Id: '1', MessageBody: JSON.stringify({ v: 1, workspace_id: 'w-1', run_id: 'run-2' }) },
    ]);
  });
});
