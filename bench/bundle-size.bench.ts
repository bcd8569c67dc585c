/**
 * Bundle size and cold import time of every Lambda, bundled exactly as CDK bundles it
 * (lib/bundling.ts feeds both). For each `functions/<name>/handler.ts`: esbuild into a temp
 * dir, then load it as the Lambda runtime does in fresh Node processes (the runtime's INIT
 * phase is that load) and report the median.
 *
 *   npm run bench:bundles                        # as deployed (SDK bundled)
 *   npm run bench:bundles -- --compare-sdk       # also with the SDK left to the Lambda runtime
 *   npm run bench:bundles -- --only areas,tags   # these functions only
 *   npm run bench:bundles -- --why areas         # what the areas bundle holds, and why
 *   npm run bench:bundles -- --runs 11           # more fresh processes per bundle
 *   npm run bench:bundles -- --no-lambda-env     # import outside Lambda's environment (tracing off)
 *
 * The import runs in Lambda's environment (AWS_LAMBDA_FUNCTION_NAME, AWS_EXECUTION_ENV,
 * LAMBDA_TASK_ROOT, the X-Ray variables Lambda sets when tracing is Active), so what loads on
 * Lambda loads here: Powertools' Tracer enabled, the X-Ray SDK in automatic mode with its Lambda
 * facade segment, outgoing HTTP captured. Without it (--no-lambda-env) tracing is off and the
 * import is cheaper than on Lambda.
 *
 * Goal (performance pass): every function at most 250 KB minified and at most 60 ms to import.
 * With --compare-sdk the "runtime SDK" bundles import @aws-sdk/* from this repo's node_modules,
 * a stand-in for the runtime's /var/runtime/node_modules (same packages, unbundled).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';
import { bundleFileName, esbuildOptions, functionEntry, lambdaBundling, repoRoot } from '../lib/bundling.ts';
import { scopeSourceMapFile } from '../lib/source-map-scope.ts';
import { consumerGroupNames } from '../shared/events/consumer-groups.ts';
import { lambdaEnvironment } from '../test/doubles/lambda-sandbox.ts';
import { explainBundle } from './bundle-why.ts';

const sizeGoalKb = 250;
const importGoalMs = 60;
const compareSdk = process.argv.includes('--compare-sdk');
const only = optionValue('--only')?.split(',');
const why = optionValue('--why');
const lambdaEnv = !process.argv.includes('--no-lambda-env');
/** Fresh processes per bundle; more when the machine is busy, the median steadies. */
const runs = Number(optionValue('--runs') ?? 5);

/**
 * Functions whose import reads their configuration: one measurement per configuration they are
 * deployed with (lib/events.ts: one stream processor per consumer group).
 */
const deployedEnvironments: Record<string, Record<string, string>[]> = {
  'stream-processor': consumerGroupNames.map((group) => ({ FSM_STREAM_CONSUMERS: group })),
};

function optionValue(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}

interface Measurement {
  name: string;
  variant: 'bundled SDK' | 'runtime SDK';
  sizeKb: number;
  importMs: number;
  /** With --enable-source-maps: what Node's own mapping would add to the import. */
  importNodeMapsMs: number;
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

/**
 * How the Lambda runtime loads the bundle: a CommonJS `index.js` (no package.json with
 * "type": "module" beside it) through `require()`, an `index.mjs` through `import()`
 * (aws-lambda-nodejs-runtime-interface-client, UserFunction.js). An `import()` of a CommonJS
 * `.js` file would also time Node's module-syntax detection (about 5 ms on a 580 KB bundle),
 * which the runtime never runs.
 */
const load =
  bundleFileName === 'index.js'
    ? {
        args: [],
        script:
          'const t0 = performance.now(); require(process.argv[1]); ' +
          'process.stdout.write(String(performance.now() - t0));',
      }
    : {
        args: ['--input-type=module'],
        script:
          'const { pathToFileURL } = await import("node:url"); const t0 = performance.now(); ' +
          'await import(pathToFileURL(process.argv[1]).href); ' +
          'process.stdout.write(String(performance.now() - t0));',
      };

/** What Lambda sets before it loads a function with tracing Active (the ones read at import). */
function lambdaEnvironmentFor(name: string, file: string): Record<string, string> {
  if (!lambdaEnv) return {};
  return lambdaEnvironment({
    functionName: `bench-${name}`,
    taskRoot: dirname(file),
    daemonAddress: '169.254.79.129:2000',
  });
}

/** Milliseconds one fresh `node` process needs to load the bundle (median of `runs`). */
function coldImportMs(file: string, nodeOptions: string[], env: Record<string, string>): number {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const child = spawnSync(process.execPath, [...nodeOptions, ...load.args, '-e', load.script, file], {
      encoding: 'utf8',
      env: { ...process.env, ...env, NODE_OPTIONS: '' },
    });
    if (child.status !== 0) throw new Error(`importing ${file} failed:\n${child.stderr}`);
    samples.push(Number(child.stdout));
  }
  return median(samples);
}

async function measure(name: string, variant: Measurement['variant'], dir: string): Promise<Measurement[]> {
  const outfile = join(dir, name, bundleFileName);
  await build(esbuildOptions(functionEntry(name), outfile, { bundleAwsSdk: variant === 'bundled SDK' }));
  // As the bundling hook does after esbuild (lib/service-function.ts).
  if (lambdaBundling.sourceMap) scopeSourceMapFile(`${outfile}.map`);
  const sizeKb = statSync(outfile).size / 1024;
  const environments = deployedEnvironments[name] ?? [{}];
  return environments.map((env) => ({
    name: environments.length > 1 ? `${name} ${Object.values(env).join(' ')}` : name,
    variant,
    sizeKb,
    // As deployed: no --enable-source-maps (stacks are mapped when formatted, lib/service-function.ts).
    importMs: coldImportMs(outfile, [], {
      ...lambdaEnvironmentFor(name, outfile),
      ...env,
    }),
    importNodeMapsMs: coldImportMs(outfile, ['--enable-source-maps'], {
      ...lambdaEnvironmentFor(name, outfile),
      ...env,
    }),
  }));
}

function row(cells: string[], widths: number[]): string {
  return cells
    .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
    .join('  ');
}

async function main(): Promise<void> {
  if (why) {
    const dir = mkdtempSync(join(tmpdir(), 'fsm-bundles-'));
    try {
      const { metafile } = await build(esbuildOptions(functionEntry(why), join(dir, bundleFileName)));
      if (!metafile) throw new Error('esbuild gave no metafile: lib/bundling.ts must ask for one');
      console.log(explainBundle(metafile, why));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'fsm-bundles-'));
  // Externalised @aws-sdk/* must resolve from the bundles' folder, as from /var/runtime on Lambda.
  symlinkSync(join(repoRoot, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const results: Measurement[] = [];
  try {
    for (const name of functionNames().filter((name) => !only || only.includes(name))) {
      results.push(...(await measure(name, 'bundled SDK', dir)));
      if (compareSdk) results.push(...(await measure(name, 'runtime SDK', join(dir, 'runtime-sdk'))));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const widths = [24, 12, 9, 11, 11, 10, 10];
  const verdict = (ok: boolean) => (ok ? 'ok' : 'MISS');
  console.log(
    `Node ${process.version}, ${runs} fresh processes per bundle (median), ` +
      `${lambdaEnv ? "in Lambda's environment (tracing on)" : "outside Lambda's environment (tracing off)"}\n`,
  );
  console.log(
    row(['function', 'variant', 'size KB', 'import ms', 'node maps ms', 'size goal', 'time goal'], widths),
  );
  for (const r of results) {
    console.log(
      row(
        [
          r.name,
          r.variant,
          r.sizeKb.toFixed(1),
          r.importMs.toFixed(1),
          r.importNodeMapsMs.toFixed(1),
          verdict(r.sizeKb <= sizeGoalKb),
          verdict(r.importMs <= importGoalMs),
        ],
        widths,
      ),
    );
  }
  const deployed = results.filter((r) => r.variant === 'bundled SDK');
  const [first] = deployed;
  if (first) {
    const largest = deployed.reduce((a, b) => (b.sizeKb > a.sizeKb ? b : a), first);
    const slowest = deployed.reduce((a, b) => (b.importMs > a.importMs ? b : a), first);
    console.log(
      `\n| largest Lambda bundle / slowest cold import | ${largest.sizeKb.toFixed(0)} KB (${largest.name}) / ` +
        `${slowest.importMs.toFixed(0)} ms (${slowest.name}) | <= ${sizeGoalKb} KB / <= ${importGoalMs} ms |`,
    );
  }
  console.log(
    `\nGoal for every function: <= ${sizeGoalKb} KB minified, <= ${importGoalMs} ms import ` +
      '(as deployed, without --enable-source-maps; "node maps ms" is the import with it). What a bundle holds: --why <function>.',
  );
}

await main();
