/**
 * The source map shipped with each Lambda maps our own code only (lib/source-map-scope.ts), and
 * stacks are mapped through it when formatted (shared/observability/bundle-stack-traces.ts, as
 * the functions run) or by Node with --enable-source-maps: either way an error in our code shows
 * our file and line, an error inside a dependency is not mistaken for our code, and the map holds
 * no dependency's sources.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../lib/bundling.ts';
import { scopeSourceMapFile } from '../../lib/source-map-scope.ts';

const dir = mkdtempSync(join(tmpdir(), 'fsm-source-maps-'));
const bundle = join(dir, 'out', 'index.js');

const modes = [
  { mode: 'mapped when formatted (as deployed)', flags: [] },
  { mode: 'mapped by Node (--enable-source-maps)', flags: ['--enable-source-maps'] },
];

function run(which: 'own' | 'dependency', flags: string[]): string {
  const child = spawnSync(process.execPath, [...flags, bundle, which], { encoding: 'utf8' });
  return child.stderr;
}

beforeAll(async () => {
  mkdirSync(join(dir, 'node_modules', 'some-dependency'), { recursive: true });
  // An ES module, as most of the bundled packages are: esbuild concatenates it between our modules.
  writeFileSync(
    join(dir, 'node_modules', 'some-dependency', 'package.json'),
    JSON.stringify({ name: 'some-dependency', type: 'module', main: 'index.js' }),
  );
  writeFileSync(
    join(dir, 'node_modules', 'some-dependency', 'index.js'),
    'export function fail(reason) {\n  throw new Error("dependency failed: " + reason);\n}\n',
  );
  // Our helper comes before the dependency in the bundle, on the same minified line: a mapping
  // left open at its end would claim the dependency's code for helper.ts.
  writeFileSync(join(dir, 'helper.ts'), "export const label = (which: string) => 'failing: ' + which;\n");
  writeFileSync(
    join(dir, 'own-code.ts'),
    [
      `import { mapBundleStackTraces } from ${JSON.stringify(join(repoRoot, 'shared/observability/bundle-stack-traces.ts'))};`,
      "import { label } from './helper.ts';",
      "import { fail } from 'some-dependency';",
      'mapBundleStackTraces(process.argv[1] ?? "");',
      'export function ours(which: string): void {',
      "  if (which === 'dependency') fail(label(which));",
      "  throw new Error('our code failed');",
      '}',
      '',
      'ours(process.argv[2] ?? "own");',
      '',
    ].join('\n'),
  );
  await build({
    entryPoints: [join(dir, 'own-code.ts')],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    minify: true,
    sourcemap: true,
    sourcesContent: false,
    absWorkingDir: dir,
    logLevel: 'silent',
  });
  scopeSourceMapFile(`${bundle}.map`);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the source map a Lambda ships', () => {
  it('lists our sources and no dependency', () => {
    const map = JSON.parse(readFileSync(`${bundle}.map`, 'utf8')) as { sources: string[] };
    expect(map.sources.filter((source) => !source.includes('bundle-stack-traces')).sort()).toEqual([
      '../helper.ts',
      '../own-code.ts',
    ]);
    expect(map.sources.some((source) => source.includes('node_modules'))).toBe(false);
  });

  it.each(modes)('shows our file and line for an error thrown in our code, $mode', ({ flags }) => {
    expect(run('own', flags)).toMatch(/own-code\.ts:7:\d+/);
  });

  it.each(modes)('does not attribute a frame inside a dependency to our code, $mode', ({ flags }) => {
    const stack = run('dependency', flags);
    const frames = stack.split('\n').filter((line) => line.trim().startsWith('at '));
    // The throwing frame stays a bundle position; the caller below it is ours, line 6.
    expect(frames[0]).toMatch(/index\.js:\d+:\d+/);
    expect(frames[0]).not.toMatch(/own-code\.ts|helper\.ts/);
    expect(stack).toMatch(/own-code\.ts:6:\d+/);
  });
});
