/**
 * Traces as deployed: a handler built like every function (observedHandler, the clients of
 * shared/aws/clients.ts), bundled with the Lambda bundling options (lib/bundling.ts, whose aliases
 * replace parts of the X-Ray SDK's dependencies) and run in Lambda's environment with tracing
 * Active, sends its segments to an X-Ray daemon (here a UDP socket): per invocation one handler
 * subsegment under the trace header Lambda gave, and one subsegment per DynamoDB call under it,
 * with concurrent calls and successive invocations kept apart.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleFileName, esbuildOptions, repoRoot } from '../../lib/bundling.ts';
import { lambdaEnvironment, startFakeDynamoDb, startXrayDaemon } from '../doubles/lambda-sandbox.ts';

interface TraceDocument {
  name: string;
  id: string;
  trace_id?: string;
  parent_id?: string;
  type?: string;
  aws?: { operation?: string; table_name?: string };
  subsegments?: TraceDocument[];
}

const dir = mkdtempSync(join(tmpdir(), 'fsm-tracing-'));
const traces = [
  { root: '1-5f84c7a1-3f4a5b6c7d8e9f0a1b2c3d4e', parent: '53995c3f42cd8ad8' },
  { root: '1-5f84c7a2-0a1b2c3d4e5f60718293a4b5', parent: '6f1b2c3d4e5f6071' },
];
const documents: { document: TraceDocument; parent: string | undefined; traceId: string | undefined }[] = [];

/** Every document and nested subsegment, with the parent and trace it belongs to. */
function collect(document: TraceDocument, parent?: string, traceId?: string): void {
  const trace = document.trace_id ?? traceId;
  documents.push({ document, parent: document.parent_id ?? parent, traceId: trace });
  for (const child of document.subsegments ?? []) collect(child, document.id, trace);
}

beforeAll(async () => {
  const daemon = await startXrayDaemon((document) => collect(document as unknown as TraceDocument));
  const dynamodb = await startFakeDynamoDb('{}');

  const outfile = join(dir, bundleFileName);
  await build(esbuildOptions(join(repoRoot, 'test/infra/fixtures/traced-handler.ts'), outfile));
  const child = spawn(process.execPath, [outfile], {
    cwd: dir,
    env: {
      PATH: process.env.PATH,
      ...lambdaEnvironment({ functionName: 'fsm-test-traced', taskRoot: dir, daemonAddress: daemon.address }),
      AWS_ACCESS_KEY_ID: 'test',
      AWS_SECRET_ACCESS_KEY: 'test',
      FSM_TEST_DYNAMODB: dynamodb.endpoint,
      TRACE_HEADERS: traces.map(({ root, parent }) => `Root=${root};Parent=${parent};Sampled=1`).join(','),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  dynamodb.close();
  daemon.close();
  if (code !== 0) throw new Error(`the traced handler failed (${code}):\n${stderr}`);
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('traces of a bundled function on Lambda', () => {
  it.each(traces.map((trace, index) => ({ ...trace, index })))(
    'invocation $index: a handler subsegment under its trace header, its two DynamoDB calls under it',
    ({ root, parent }) => {
      const handlers = documents.filter(
        ({ document, traceId }) => document.name === '## index.handler' && traceId === `${root}`,
      );
      expect(handlers).toHaveLength(1);
      const [handler] = handlers;
      expect(handler?.parent).toBe(parent);

      const calls = documents.filter(({ document }) => document.name === 'DynamoDB');
      const underHandler = calls.filter(({ parent: of }) => of === handler?.document.id);
      expect(underHandler).toHaveLength(2);
      for (const call of underHandler) {
        expect(call.traceId).toBe(root);
        expect(call.document.aws?.operation).toBe('GetItem');
      }
    },
  );

  it('puts every DynamoDB call under a handler subsegment of its own invocation', () => {
    const handlerIds = new Set(
      documents
        .filter(({ document }) => document.name === '## index.handler')
        .map(({ document }) => document.id),
    );
    const calls = documents.filter(({ document }) => document.name === 'DynamoDB');
    expect(calls).toHaveLength(4);
    for (const call of calls) expect(handlerIds.has(call.parent ?? '')).toBe(true);
  });
});
