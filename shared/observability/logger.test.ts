import { afterEach, describe, expect, it, vi } from 'vitest';
import { enterLogContext, logger } from './logger.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('Module: logger', () => {
  it('writes one JSON line per entry with the ids of the request it was written in', async () => {
    // Prepare
    const lines: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    const serve = async (requestId: string) => {
      enterLogContext({ requestId, correlationId: `c-${requestId}`, operationId: 'areas.get' });
      await new Promise((resolve) => setTimeout(resolve, 5));
      logger.info('served', { status: 200 });
    };

    // Act: two requests interleaved, as in one container.
    await Promise.all([serve('r1'), serve('r2')]);

    // Assess
    const entries = lines.map((line) => JSON.parse(line));
    expect(lines.every((line) => line.endsWith('\n'))).toBe(true);
    expect(entries).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          level: 'INFO',
          message: 'served',
          requestId: 'r1',
          correlationId: 'c-r1',
          status: 200,
        }),
        expect.objectContaining({ requestId: 'r2', correlationId: 'c-r2', operationId: 'areas.get' }),
      ]),
    );
  });

  it('writes what JSON cannot carry as such: errors, bigints, cycles; leaves out empty values', () => {
    // Prepare
    const lines: string[] = [];
    // warn and error go to standard error (Powertools' console).
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;

    // Act
    logger.warn('odd details', {
      error: new Error('boom', { cause: new TypeError('inner') }),
      count: 12n,
      nested: { total: 3n },
      cyclic,
      empty: '',
      missing: undefined,
      none: null,
    });

    // Assess
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0] ?? '');
    expect(entry).toMatchObject({
      level: 'WARN',
      message: 'odd details',
      error: { name: 'Error', message: 'boom', cause: { name: 'TypeError', message: 'inner' } },
      count: '12',
      nested: { total: '3' },
      cyclic: { name: 'loop', self: { name: 'loop' } },
    });
    expect(entry).not.toHaveProperty('empty');
    expect(entry).not.toHaveProperty('missing');
    expect(entry).not.toHaveProperty('none');
  });

  it('leaves out entries below LOG_LEVEL', () => {
    // Prepare
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    vi.stubEnv('LOG_LEVEL', 'warn');

    // Act
    logger.info('chatty');

    // Assess
    expect(write).not.toHaveBeenCalled();
    vi.unstubAllEnvs();
  });
});
