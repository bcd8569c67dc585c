/**
 * Bundle size and cold import time of every Lambda, bundled exactly as CDK bundles it
 * (lib/bundling.ts feeds both). For each `functions/<name>/handler.ts`: esbuild into a temp
 * dir, then import the bundle in fresh Node processes (the runtime's INIT phase is that
 * import) and report the median of 5.
 *
 *   npm run bench:bundles                    # as deployed (SDK bundled)
 *   npm run bench:bundles -- --compare-sdk   # also with the SDK left to the Lambda runtime
 *
 * Goal (issue 3): CRUD groups at most 250 KB minified and under 100 ms to import.
 * With --compare-sdk the "runtime SDK" bundles import @aws-sdk/* from this repo's node_modules,
 * a stand-in for the runtime's /var/runtime/node_modules (same packages, unbundled).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { bundleFileName, esbuildOptions, functionEntry, repoRoot } from '../lib/bundling.ts';
import { operationGroups } from '../shared/routes/route-table.ts';

const runs = 5;
const sizeGoalKb = 250;
const importGoalMs = 100;
const compareSdk = process.argv.includes('--compare-sdk');

interface Measurement {
  name: string;
  variant: 'bundled SDK' | 'runtime SDK';
  sizeKb: number;
  importMs: number;
  importNoMapsMs: number;
}

function functionNames(): string[] {
  const root = join(repoRoot, 'functions');
  return readdirSync(root)
    .filter((name) => statSync(join(root, name)).isDirectory() && existsSync(functionEntry(name)))
    .sort();
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** Milliseconds one fresh `node` process needs to import the bundle (median of `runs`). */
function coldImportMs(file: string, nodeOptions: string[]): number {
  const script =
    'const t0 = performance.now(); await import(process.argv[1]); ' +
    'process.stdout.write(String(performance.now() - t0));';
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const child = spawnSync(
      process.execPath,
      [...nodeOptions, '--input-type=module', '-e', script, pathToFileURL(file).href],
      { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } },
    );
    if (child.status !== 0) throw new Error(`importing ${file} failed:\n${child.stderr}`);
    samples.push(Number(child.stdout));
  }
  return median(samples);
}

async function measure(name: string, variant: Measurement['variant'], dir: string): Promise<Measurement> {
  const outfile = join(dir, name, bundleFileName);
  await build(esbuildOptions(functionEntry(name), outfile, { bundleAwsSdk: variant === 'bundled SDK' }));
  return {
    name,
    variant,
    sizeKb: statSync(outfile).size / 1024,
    // Lambda runs with NODE_OPTIONS=--enable-source-maps (lib/service-function.ts).
    importMs: coldImportMs(outfile, ['--enable-source-maps']),
    importNoMapsMs: coldImportMs(outfile, []),
  };
}

function row(cells: string[], widths: number[]): string {
  return cells
    .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
    .join('  ');
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'fsm-bundles-'));
  // Externalised @aws-sdk/* must resolve from the bundles' folder, as from /var/runtime on Lambda.
  symlinkSync(join(repoRoot, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const crud = new Set<string>(operationGroups.filter((group) => group !== 'platform'));
  const results: Measurement[] = [];
  try {
    for (const name of functionNames()) {
      results.push(await measure(name, 'bundled SDK', dir));
      if (compareSdk) results.push(await measure(name, 'runtime SDK', join(dir, 'runtime-sdk')));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const widths = [18, 12, 9, 11, 11, 10, 10];
  const verdict = (name: string, ok: boolean) => (crud.has(name) ? (ok ? 'ok' : 'MISS') : '-');
  console.log(`Node ${process.version}, ${runs} fresh processes per bundle (median)\n`);
  console.log(
    row(['function', 'variant', 'size KB', 'import ms', 'no maps ms', 'size goal', 'time goal'], widths),
  );
  for (const r of results) {
    console.log(
      row(
        [
          r.name,
          r.variant,
          r.sizeKb.toFixed(1),
          r.importMs.toFixed(1),
          r.importNoMapsMs.toFixed(1),
          verdict(r.name, r.sizeKb <= sizeGoalKb),
          verdict(r.name, r.importMs < importGoalMs),
        ],
        widths,
      ),
    );
  }
  console.log(
    `\nGoal for CRUD groups (${[...crud].join(', ')}): <= ${sizeGoalKb} KB minified, < ${importGoalMs} ms import ` +
      '(with --enable-source-maps, as deployed).',
  );
}

await main();
