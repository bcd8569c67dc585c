/**
 * `npm run bench:tracing`: the CPU one invocation costs as deployed, with X-Ray tracing on and
 * off. A handler built as every function is, bundled with the Lambda bundling options
 * (lib/bundling.ts), runs in Lambda's environment (tracing Active: the X-Ray SDK's Lambda facade,
 * Powertools' handler subsegment, the client captured) against a fake DynamoDB answering GetItem,
 * its segments going to a UDP socket standing in for the daemon. Variants, interleaved round by
 * round so they share the machine's load:
 *
 *   traced              as deployed (the X-Ray SDK's context on AsyncLocalStorage)
 *   traced, cls-hooked  the X-Ray SDK's own context (cls-hooked's async hook on every promise)
 *   not traced          POWERTOOLS_TRACE_DISABLED=true, the same bundle
 *
 * Prints the median CPU per invocation (one GetItem each) of each variant; asserts nothing.
 *   npm run bench:tracing -- --rounds 7 --invocations 3000
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { esbuildOptions, lambdaBundling, repoRoot } from '../lib/bundling.ts';
import { lambdaEnvironment, startFakeDynamoDb, startXrayDaemon } from '../test/doubles/lambda-sandbox.ts';

function optionValue(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}
const rounds = Number(optionValue('--rounds') ?? 5);
const invocations = Number(optionValue('--invocations') ?? 2000);

interface Variant {
  name: string;
  bundle: string;
  env: Record<string, string>;
}

async function bundle(dir: string, name: string, withoutAlias?: string): Promise<string> {
  const outfile = join(dir, name, 'index.js');
  const options = esbuildOptions(join(repoRoot, 'bench/support/traced-calls.ts'), outfile);
  if (withoutAlias) {
    const { [withoutAlias]: _dropped, ...alias } = { ...lambdaBundling.alias } as Record<string, string>;
    options.alias = alias;
  }
  await build(options);
  return outfile;
}

function run(file: string, env: Record<string, string>) {
  const child = spawn(process.execPath, [file], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, stdout, stderr })),
  );
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function main(): Promise<void> {
  let datagrams = 0;
  const daemon = await startXrayDaemon(() => {
    datagrams++;
  });
  const dynamodb = await startFakeDynamoDb(
    JSON.stringify({ Item: { pk: { S: 'item' }, name: { S: 'A bench item' }, count: { N: '3' } } }),
  );

  const dir = mkdtempSync(join(tmpdir(), 'fsm-tracing-bench-'));
  try {
    const deployed = await bundle(dir, 'deployed');
    const clsHooked = await bundle(dir, 'cls-hooked', 'cls-hooked/context');
    const variants: Variant[] = [
      { name: 'traced', bundle: deployed, env: {} },
      { name: 'traced, cls-hooked', bundle: clsHooked, env: {} },
      { name: 'not traced', bundle: deployed, env: { POWERTOOLS_TRACE_DISABLED: 'true' } },
    ];
    const samples = new Map<string, number[]>(variants.map((variant) => [variant.name, []]));
    for (let round = 0; round < rounds; round++) {
      for (const variant of variants) {
        // Not spawnSync: the fake DynamoDB and the daemon answer from this process's event loop.
        const child = await run(variant.bundle, {
          PATH: process.env.PATH ?? '',
          ...lambdaEnvironment({
            functionName: 'fsm-bench-traced',
            taskRoot: dir,
            daemonAddress: daemon.address,
          }),
          AWS_ACCESS_KEY_ID: 'bench',
          AWS_SECRET_ACCESS_KEY: 'bench',
          BENCH_DYNAMODB: dynamodb.endpoint,
          INVOCATIONS: String(invocations),
          LOG_LEVEL: 'WARN',
          ...variant.env,
        });
        if (child.code !== 0) throw new Error(`${variant.name} failed:\n${child.stderr}`);
        samples.get(variant.name)?.push(Number(child.stdout));
      }
    }
    console.log(
      `Node ${process.version}; ${rounds} rounds of ${invocations} invocations (one GetItem each) per variant; ` +
        `${datagrams} segment datagrams received\n`,
    );
    const base = median(samples.get('not traced') ?? []);
    for (const variant of variants) {
      const value = median(samples.get(variant.name) ?? []);
      console.log(
        `${variant.name.padEnd(20)} ${value.toFixed(0).padStart(6)} µs CPU per invocation` +
          (variant.name === 'not traced' ? '' : `  (+${(value - base).toFixed(0)} µs over not traced)`),
      );
    }
  } finally {
    dynamodb.close();
    daemon.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
