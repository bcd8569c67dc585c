/**
 * The readiness check: every probe must answer, in time; the answer is reused for a few seconds;
 * a failing probe makes a 503 problem document that names it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import { ProblemError } from '../http/problem.ts';
import { answerReadiness, type ReadinessReport, readinessCheck } from './readiness.ts';

function fakeResponse() {
  const sent: { status?: number; headers?: Record<string, unknown>; body?: string } = {};
  const res = {
    set statusCode(status: number) {
      sent.status = status;
    },
    writeHead: (status: number, headers: Record<string, unknown>) => {
      sent.status = status;
      sent.headers = headers;
      return res;
    },
    setHeader: () => res,
    end: (body?: string | Buffer) => {
      sent.body = body?.toString();
      return res;
    },
  };
  return { res: res as unknown as ServerResponse, sent };
}

describe('Module: readiness', () => {
  it('is ready when every probe answers', async () => {
    // Prepare
    const check = readinessCheck([
      { name: 'table', check: async () => {} },
      { name: 'queues', check: async () => {} },
    ]);

    // Act
    const report = await check();

    // Assess
    expect(report).toEqual({ ready: true, checks: { table: 'ok', queues: 'ok' } });
  });

  it('is not ready when a probe fails or outlives its deadline, and says which', async () => {
    // Prepare
    const check = readinessCheck(
      [
        { name: 'table', check: async () => {} },
        { name: 'queues', check: () => new Promise(() => {}) },
        { name: 'identity_keys', check: async () => Promise.reject(new Error('no key')) },
      ],
      { deadlineMs: 20 },
    );
    const { res, sent } = fakeResponse();

    // Act
    await answerReadiness(getRequest('/health/ready'), res, check);

    // Assess
    expect(sent.status).toBe(503);
    expect(JSON.parse(sent.body ?? '{}')).toMatchObject({
      status: 503,
      detail: 'Not ready: queues, identity_keys did not answer.',
    });
  });

  it('reuses its answer for cacheMs instead of probing again', async () => {
    // Prepare
    const probe = vi.fn(async () => {});
    const check = readinessCheck([{ name: 'table', check: probe }], { cacheMs: 60_000 });

    // Act
    await check();
    await check();

    // Assess
    expect(probe).toHaveBeenCalledTimes(1);
  });
});

describe('Function: answerReadiness, the request', () => {
  const ready = async (): Promise<ReadinessReport> => ({ ready: true, checks: { table: 'ok' } });

  it('refuses a query parameter at its pointer, as every operation does', async () => {
    const { res } = fakeResponse();

    const refused = await answerReadiness(getRequest('/health/ready?verbose=1'), res, ready).catch(
      (error: unknown) => error,
    );

    expect(refused).toBeInstanceOf(ProblemError);
    expect((refused as ProblemError).init.errors?.[0]).toMatchObject({
      type: 'field-unknown',
      pointer: '#/query/verbose',
    });
  });

  it('answers GET only', async () => {
    const { res } = fakeResponse();

    const refused = await answerReadiness(getRequest('/health/ready', 'POST'), res, ready).catch(
      (error: unknown) => error,
    );

    expect((refused as ProblemError).type).toBe('method-not-allowed');
  });
});

function getRequest(url: string, method = 'GET'): IncomingMessage {
  return { url, method } as IncomingMessage;
}
