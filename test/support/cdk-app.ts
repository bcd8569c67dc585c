/**
 * The CDK app of the infrastructure tests. Building the stacks bundles every Lambda with esbuild
 * (about 25 s on this machine), and a template assertion needs none of the bundles: with
 * `aws:cdk:bundling-stacks` empty, CDK stages placeholder assets instead and the stacks build in
 * under a second. Bundling itself is still exercised: lambda-tracing.test.ts bundles a function
 * with the Lambda bundling options, and `npm run synth:all` (.ci/run) bundles every function of
 * every environment.
 */
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import type { App } from 'aws-cdk-lib';
import { inject } from 'vitest';
import { createApp } from '../../lib/app.ts';

/** A directory of its own for one app's synthesis, removed with the run (cdk-outdir-setup.ts). */
export function testOutdir(): string {
  return mkdtempSync(join(inject('cdkOutRoot'), 'cdk.out-'));
}

export function createTestApp(): App {
  return createApp({ outdir: testOutdir(), context: { 'aws:cdk:bundling-stacks': [] } });
}
