/**
 * cdk-nag's AwsSolutions pack over every environment at once: the synth fails on any
 * unacknowledged finding, and every acknowledgement carries its reason.
 */
import { type App, Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { addEnvironmentStacks, addNagChecks } from '../../lib/app.ts';
import { environmentNames } from '../../lib/environments.ts';
import { createTestApp } from '../support/cdk-app.ts';

let app: App;
let synthError: unknown;

beforeAll(() => {
  app = createTestApp();
  for (const name of environmentNames) addEnvironmentStacks(app, name, { nag: false });
  addNagChecks(app);
  try {
    app.synth();
  } catch (error) {
    synthError = error;
  }
}, 180_000);

function acknowledgements(root: IConstruct): Array<{ path: string; id: string; reason: string }> {
  return root.node.findAll().flatMap((construct) =>
    construct.node.metadata
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((entry) =>
        Object.entries(entry.data as Record<string, string>).map(([id, reason]) => ({
          path: construct.node.path,
          id,
          reason,
        })),
      ),
  );
}

describe('cdk-nag AwsSolutions', () => {
  it.each(environmentNames)('passes for %s with no unacknowledged finding', () => {
    // One synth covers every environment; a finding anywhere throws with the report.
    expect(synthError).toBeUndefined();
  });

  it('records a reason with every acknowledgement', () => {
    const all = acknowledgements(app);
    expect(all.length).toBeGreaterThan(0);
    for (const { path, id, reason } of all) {
      expect(reason.length, `${path} ${id}`).toBeGreaterThan(40);
    }
  });
});
