/**
 * The OpenAPI document under Spectral, twice: with the Zalando RESTful API guidelines as published,
 * exempting only what the contract imposes (.spectral-zalando.yaml), and with the project's
 * ruleset (.spectral.yaml, which `npm run lint:openapi` also runs). An error under either fails;
 * the warnings are counted and printed: under the published ruleset each is a choice the project
 * made where the contract is silent (the reasons are in .spectral.yaml), under the project's none
 * is left.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../shared/openapi/openapi-document.ts';

const run = promisify(execFile);

interface Finding {
  code: string;
  severity: number;
  path: string[];
  message: string;
}

let dir: string;
let document: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fsm-lint-'));
  document = join(dir, 'openapi.json');
  await writeFile(document, JSON.stringify(openApiDocument()));
});

afterAll(() => rm(dir, { recursive: true, force: true }));

/** Spectral's findings for the document under a ruleset (its exit code says nothing here). */
async function lint(ruleset: string): Promise<Finding[]> {
  const output = join(dir, `${ruleset}.json`);
  await run(
    'node_modules/.bin/spectral',
    [
      'lint',
      document,
      '--ruleset',
      ruleset,
      '--format',
      'json',
      '--output',
      output,
      '--fail-severity',
      'hint',
      '--quiet',
    ],
    { maxBuffer: 64 * 1024 * 1024 },
  ).catch(() => undefined);
  return JSON.parse(await readFile(output, 'utf8')) as Finding[];
}

const describeFinding = (finding: Finding) =>
  `${finding.code} at ${finding.path.join('.')}: ${finding.message}`;

describe('The OpenAPI document under Spectral', () => {
  it.each([
    ['the Zalando guidelines as published, less what the contract imposes', '.spectral-zalando.yaml'],
    ['the project’s ruleset', '.spectral.yaml'],
  ])(
    'has no error under %s',
    async (name, ruleset) => {
      const findings = await lint(ruleset);

      const errors = findings.filter((finding) => finding.severity === 0).map(describeFinding);
      const warnings = findings.filter((finding) => finding.severity === 1).map(describeFinding);
      console.log(`Spectral, ${name}: ${errors.length} errors, ${warnings.length} warnings`);
      for (const warning of warnings) console.log(`  warning ${warning}`);
      expect(errors).toEqual([]);
      if (ruleset === '.spectral.yaml') expect(warnings).toEqual([]);
    },
    60_000,
  );
});
