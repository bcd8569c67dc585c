import { describe, expect, it } from 'vitest';
import { toProblemError } from '../http/error-mapper.ts';
import { MailError, reportingFailures } from './mailer.ts';

const message = { to: 'lukas.brandt@acme.example', subject: 'Set your password', text: 'link' };

describe('Function: reportingFailures', () => {
  it('passes a message to the adapter', async () => {
    // Prepare
    const sent: unknown[] = [];
    const mailer = reportingFailures({ send: async (m) => void sent.push(m) });

    // Act
    await mailer.send(message);

    // Assess
    expect(sent).toEqual([message]);
  });

  it('reports any failure of the adapter as MailError, keeping its cause', async () => {
    // Prepare
    const cause = Object.assign(new Error('ENOTDIR: not a directory'), { code: 'ENOTDIR' });
    const mailer = reportingFailures({
      send: async () => {
        throw cause;
      },
    });

    // Act
    const error = await mailer.send(message).catch((e: unknown) => e);

    // Assess
    expect(error).toBeInstanceOf(MailError);
    expect((error as MailError).cause).toBe(cause);
  });
});

describe('Function: toProblemError with a MailError', () => {
  it('answers 503 service-unavailable with Retry-After, not 500', () => {
    // Act
    const problem = toProblemError(new MailError({ cause: new Error('SES throttled') }), {});

    // Assess
    expect(problem.type).toBe('service-unavailable');
    expect(problem.status).toBe(503);
    expect(problem.init.headers).toMatchObject({ 'retry-after': expect.stringMatching(/^\d+$/) });
  });
});
