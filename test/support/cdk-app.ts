/**
 * The CDK app of the infrastructure tests. Building the stacks bundles every Lambda with esbuild
 * (about 25 s on this machine), and a template assertion needs none of the bundles: with
 * `aws:cdk:bundling-stacks` empty, CDK stages placeholder assets instead and the stacks build in
 * under a second. Bundling itself is still exercised: api-routes.test.ts builds with it, and
 * `npm run synth:all` (.ci/run) bundles every function of every environment.
 */
import type { App } from 'aws-cdk-lib';
import { createApp } from '../../lib/app.ts';

export function createTestApp(): App {
  return createApp({ context: { 'aws:cdk:bundling-stacks': [] } });
}
