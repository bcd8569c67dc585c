/**
 * The infra project's global setup: one temporary directory for every CDK app its files build.
 * An App without an outdir synthesizes into a fresh `cdk.out*` directory of the system's temp
 * folder and never removes it; at about 60 apps a run, a machine that runs the suite often had a
 * thousand of them (460 MB). Each app gets a directory of its own inside this one (two files
 * synthesize at once), and the whole tree goes when the run ends.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the infra tests' CDK apps synthesize (test/support/cdk-app.ts). */
    cdkOutRoot: string;
  }
}

export default async function setup(project: TestProject) {
  const root = await mkdtemp(join(tmpdir(), 'fsm-infra-cdk-'));
  project.provide('cdkOutRoot', root);
  return async () => {
    await rm(root, { recursive: true, force: true });
  };
}
