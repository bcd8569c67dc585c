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
