/**
 * Debug sampling where one process serves many requests (the container, the local server):
 * POWERTOOLS_LOGGER_SAMPLE_RATE picks requests, each decided when its log context is entered,
 * instead of Powertools deciding once for the whole process.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

let lines: Record<string, unknown>[];

beforeEach(() => {
  vi.resetModules();
  vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', '');
  vi.stubEnv('POWERTOOLS_LOGGER_SAMPLE_RATE', '0.5');
  vi.stubEnv('LOG_LEVEL', 'INFO');
  lines = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    lines.push(JSON.parse(String(chunk)));
    return true;
  });
});

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

async function serve(logger: typeof import('./logger.ts'), requestId: string): Promise<void> {
  logger.enterLogContext({ requestId, correlationId: requestId });
  await new Promise((resolve) => setTimeout(resolve, 2));
  logger.logger.debug('detail', { step: 1 });
  logger.logger.info('served');
}

describe('Module: logger, sampling per request outside Lambda', () => {
  it('writes the debug lines of the sampled requests only, with the rate, at an info level', async () => {
    const logger = await import('./logger.ts');
    // The first request drawn under the rate, the second above it.
    vi.spyOn(Math, 'random').mockReturnValueOnce(0.2).mockReturnValueOnce(0.8);

    await Promise.all([serve(logger, 'sampled'), serve(logger, 'plain')]);

    const debug = lines.filter((line) => line.level === 'DEBUG');
    expect(debug).toEqual([
      expect.objectContaining({ message: 'detail', requestId: 'sampled', sampling_rate: 0.5 }),
    ]);
    const info = lines.filter((line) => line.level === 'INFO');
    expect(info.map((line) => line.requestId).sort()).toEqual(['plain', 'sampled']);
    expect(info.find((line) => line.requestId === 'plain')).not.toHaveProperty('sampling_rate');
  });

  it('does not turn the whole process to debug: lines outside a request keep the level', async () => {
    // At 1, Powertools' own once-per-process draw would always switch the process to debug.
    vi.stubEnv('POWERTOOLS_LOGGER_SAMPLE_RATE', '1');
    const logger = await import('./logger.ts');

    logger.logger.debug('start-up detail');
    await serve(logger, 'sampled');

    expect(lines.filter((line) => line.level === 'DEBUG').map((line) => line.message)).toEqual(['detail']);
  });
});

describe('Module: logger, its level', () => {
  it.each(['warn', 'WARN'])(
    'honours LOG_LEVEL=%s as the environments set it: no info line, the warning',
    async (level) => {
      vi.stubEnv('POWERTOOLS_LOGGER_SAMPLE_RATE', '');
      vi.stubEnv('LOG_LEVEL', level);
      vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
        lines.push(JSON.parse(String(chunk)));
        return true;
      });
      const { logger } = await import('./logger.ts');

      logger.info('routine');
      logger.warn('attention');

      expect(lines.map((line) => line.message)).toEqual(['attention']);
    },
  );

  it('keeps its level when LOG_LEVEL changes to a value it does not know', async () => {
    vi.stubEnv('POWERTOOLS_LOGGER_SAMPLE_RATE', '');
    const { logger } = await import('./logger.ts');
    vi.stubEnv('LOG_LEVEL', 'verbose');

    expect(() => logger.info('still written')).not.toThrow();
    expect(lines.map((line) => line.message)).toEqual(['still written']);
  });
});
