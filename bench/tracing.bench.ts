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
import { createSocket } from 'node:dgram';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { esbuildOptions, lambdaBundling, repoRoot } from '../lib/bundling.ts';

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
  const daemon = createSocket('udp4');
  let datagrams = 0;
  daemon.on('message', () => {
    datagrams++;
  });
  await new Promise<void>((resolve) => daemon.bind(0, '127.0.0.1', resolve));
  const item = JSON.stringify({
    Item: { pk: { S: 'item' }, name: { S: 'A bench item' }, count: { N: '3' } },
  });
  const dynamodb = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': 'bench' });
      response.end(item);
    });
  });
  await new Promise<void>((resolve) => dynamodb.listen(0, '127.0.0.1', resolve));

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
          AWS_LAMBDA_FUNCTION_NAME: 'fsm-bench-traced',
          AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x',
          LAMBDA_TASK_ROOT: dir,
          _HANDLER: 'index.handler',
          AWS_REGION: 'eu-central-1',
          AWS_ACCESS_KEY_ID: 'bench',
          AWS_SECRET_ACCESS_KEY: 'bench',
          AWS_XRAY_CONTEXT_MISSING: 'LOG_ERROR',
          AWS_XRAY_DAEMON_ADDRESS: `127.0.0.1:${(daemon.address() as AddressInfo).port}`,
          BENCH_DYNAMODB: `http://127.0.0.1:${(dynamodb.address() as AddressInfo).port}`,
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
