/**
 * `npm start` and the Fargate container run with the settings that keep an idle event-stream
 * connection small (shared/local-stack/lean-runtime.ts), as the test and bench harnesses do.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { leanRuntime } from '../../shared/local-stack/lean-runtime.ts';

const root = join(import.meta.dirname, '..', '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

describe('The processes that hold event-stream connections', () => {
  it('run npm start with the lean settings', () => {
    const start = (JSON.parse(read('package.json')) as { scripts: { start: string } }).scripts.start;

    for (const [name, value] of Object.entries(leanRuntime.env)) expect(start).toContain(`${name}=${value} `);
    for (const flag of leanRuntime.nodeFlags) expect(start).toContain(` ${flag} `);
    expect(start).toMatch(/bin\/start\.ts$/);
  });

  it('run the container with the lean settings', () => {
    const dockerfile = read('Dockerfile');
    const command = /^CMD (\[.*\])$/m.exec(dockerfile)?.[1] ?? '[]';

    for (const [name, value] of Object.entries(leanRuntime.env)) {
      expect(dockerfile).toMatch(new RegExp(`^\\s+${name}=${value}\\b`, 'm'));
    }
    expect(JSON.parse(command)).toEqual(['node', ...leanRuntime.nodeFlags, 'bin/serve-container.ts']);
  });
});
