import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SNSClient } from '@aws-sdk/client-sns';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toProblemError } from '../http/error-mapper.ts';
import { logger } from '../observability/logger.ts';
import {
  fileSmsSender,
  reportingFailures,
  SmsError,
  setSmsSender,
  smsSender,
  snsSmsSender,
} from './sms-sender.ts';

const message = { to: '+4915112345678', text: 'Set up the app: https://fsm.example/enroll/s3cr3t' };

describe('Function: reportingFailures', () => {
  it('passes a message to the adapter', async () => {
    // Prepare
    const sent: unknown[] = [];
    const sender = reportingFailures({ send: async (m) => void sent.push(m) });

    // Act
    await sender.send(message);

    // Assess
    expect(sent).toEqual([message]);
  });

  it('reports any failure of the adapter as SmsError, keeping its cause', async () => {
    // Prepare
    const cause = Object.assign(new Error('ENOTDIR: not a directory'), { code: 'ENOTDIR' });
    const sender = reportingFailures({
      send: async () => {
        throw cause;
      },
    });

    // Act
    const error = await sender.send(message).catch((e: unknown) => e);

    // Assess
    expect(error).toBeInstanceOf(SmsError);
    expect((error as SmsError).cause).toBe(cause);
  });
});

describe('Function: toProblemError with an SmsError', () => {
  it('answers 503 service-unavailable with Retry-After, not 500', () => {
    // Act
    const problem = toProblemError(new SmsError({ cause: new Error('SNS throttled') }), {});

    // Assess
    expect(problem.type).toBe('service-unavailable');
    expect(problem.status).toBe(503);
    expect(problem.init.headers).toMatchObject({ 'retry-after': expect.stringMatching(/^\d+$/) });
  });
});

describe('Function: fileSmsSender', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'fsm-sms-'));
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes each message to its own owner-only file that shows recipient and text', async () => {
    // Prepare
    const heard: string[] = [];
    const sender = fileSmsSender(join(dir, 'sms'), (file) => heard.push(file));

    // Act
    await sender.send(message);
    await sender.send({ ...message, text: 'second' });

    // Assess
    const files = (await readdir(join(dir, 'sms'))).sort();
    expect(files).toHaveLength(2);
    expect(heard.map((file) => file.split('/').pop()).sort()).toEqual(files);
    for (const file of files) expect(file).toMatch(/^\d{4}-\d\d-\d\dT[\d-]+Z-[0-9a-f-]{36}\.txt$/);
    const texts = await Promise.all(files.map((file) => readFile(join(dir, 'sms', file), 'utf8')));
    const first = texts.find((text) => text.includes('enroll'));
    expect(first).toMatch(
      /^To: \+4915112345678\nDate: .+ GMT\n\nSet up the app: https:\/\/fsm\.example\/enroll\/s3cr3t\n$/,
    );
    expect((await stat(join(dir, 'sms', files[0] ?? ''))).mode & 0o777).toBe(0o600);
  });
});

describe('Function: snsSmsSender', () => {
  it('publishes a transactional SMS to the phone number', async () => {
    // Prepare
    const commands: unknown[] = [];
    const client = { send: async (command: { input: unknown }) => void commands.push(command.input) };
    const sender = snsSmsSender(client as unknown as SNSClient);

    // Act
    await sender.send(message);

    // Assess
    expect(commands).toEqual([
      {
        PhoneNumber: '+4915112345678',
        Message: message.text,
        MessageAttributes: { 'AWS.SNS.SMS.SMSType': { DataType: 'String', StringValue: 'Transactional' } },
      },
    ]);
  });
});

describe('Function: smsSender', () => {
  let dir: string;
  const previous = process.env.FSM_SMS_DIR;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'fsm-sms-'));
    process.env.FSM_SMS_DIR = dir;
    setSmsSender(undefined);
  });

  afterEach(async () => {
    if (previous === undefined) delete process.env.FSM_SMS_DIR;
    else process.env.FSM_SMS_DIR = previous;
    setSmsSender(undefined);
    vi.restoreAllMocks();
    await rm(dir, { recursive: true, force: true });
  });

  it('writes to FSM_SMS_DIR and logs recipient and file, never the secret text', async () => {
    // Prepare
    const info = vi.spyOn(logger, 'info').mockImplementation(() => {});

    // Act
    await smsSender().send(message);

    // Assess
    const files = await readdir(dir);
    expect(files).toHaveLength(1);
    expect(info.mock.calls).toEqual([
      ['sms written', { to: '+4915112345678', file: join(dir, files[0] ?? '') }],
    ]);
    expect(JSON.stringify(info.mock.calls)).not.toContain('s3cr3t');
  });

  it('reports a folder that cannot be written as SmsError', async () => {
    // Prepare: the folder's place is taken by a file.
    await writeFile(join(dir, 'taken'), '');
    process.env.FSM_SMS_DIR = join(dir, 'taken');
    setSmsSender(undefined);

    // Act
    const error = await smsSender()
      .send(message)
      .catch((e: unknown) => e);

    // Assess
    expect(error).toBeInstanceOf(SmsError);
  });

  it('uses the sender the local stack or a test sets', async () => {
    // Prepare
    const sent: unknown[] = [];
    setSmsSender({ send: async (m) => void sent.push(m) });

    // Act
    await smsSender().send(message);

    // Assess
    expect(sent).toEqual([message]);
    expect(await readdir(dir)).toEqual([]);
  });
});
