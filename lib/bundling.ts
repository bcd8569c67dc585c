/**
 * How every Lambda is bundled, as plain data: `service-function.ts` hands it to NodejsFunction
 * (local esbuild) and `bench/bundle-size.bench.ts` hands the same options to esbuild directly,
 * so the benchmark measures exactly what is deployed. No aws-cdk-lib import here on purpose:
 * the benchmark must not load CDK.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildOptions } from 'esbuild';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The entry of a function under `functions/`, e.g. `functions/areas/handler.ts`. */
export function functionEntry(name: string): string {
  return join(repoRoot, 'functions', name, 'handler.ts');
}

/** Modules the Lambda runtime provides, left out of the bundle when the SDK is not bundled. */
export const runtimeSdkModules = ['@aws-sdk/*', '@smithy/*'] as const;

export const lambdaBundling = {
  target: 'node24',
  /**
   * CommonJS output, although the sources are ESM: an ESM bundle's `import … from 'node:http'`
   * makes Node build the module's ESM facade, which evaluates every lazy export and so loads
   * undici (~10 ms of every cold start). Measured: areas 97 ms as CJS vs 106 ms as ESM.
   * The price: no top-level await in function code (esbuild refuses it for CJS, at synth).
   */
  format: 'cjs' as 'cjs' | 'esm',
  minify: true,
  /**
   * External `index.js.map`, scoped to our code (source-map-scope.ts) and read on the first stack
   * trace formatted (shared/observability/bundle-stack-traces.ts).
   */
  sourceMap: true,
  /** Stack traces need the mappings, not the sources: keeps the map (and the zip) small. */
  sourcesContent: false,
  /** Prefer packages' ESM builds: they tree-shake. */
  mainFields: ['module', 'main'],
  /**
   * Bundle AWS SDK v3 instead of using the runtime's copy: tree-shaken and minified it imports
   * faster than the runtime's full packages, and the deployed SDK is the tested, locked one.
   * Measured with `npm run bench:bundles -- --compare-sdk` (numbers in docs/deploy.md).
   */
  bundleAwsSdk: true,
  /**
   * Module replacements, relative to the repository root. On Lambda credentials are always
   * environment variables, so the SDK's default provider chain is swapped for an env-only one.
   * `semver`, which the X-Ray SDK under Powertools' Tracer requires for one `gte` call on a
   * path this service never takes, is a `gte` of its own (semver-gte.ts): 28 KB less in every
   * bundle. The X-Ray SDK's context (`cls-hooked/context`) is AsyncLocalStorage
   * (xray-context.ts): cls-hooked's async hook ran on every promise of every invocation, and it
   * brought Node's assert module (~1 ms of every cold start) with it.
   */
  alias: {
    '@aws-sdk/credential-provider-node': './shared/aws/lambda-credential-provider.ts',
    semver: './shared/observability/semver-gte.ts',
    'cls-hooked/context': './shared/observability/xray-context.ts',
  },
} as const;

/** The file NodejsFunction writes for this format. */
export const bundleFileName = lambdaBundling.format === 'esm' ? 'index.mjs' : 'index.js';

/** The esbuild options NodejsFunction derives from `lambdaBundling` (see its buildEsbuildArgs). */
export function esbuildOptions(
  entry: string,
  outfile: string,
  overrides: { bundleAwsSdk?: boolean } = {},
): BuildOptions {
  const bundleAwsSdk = overrides.bundleAwsSdk ?? lambdaBundling.bundleAwsSdk;
  return {
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: lambdaBundling.target,
    format: lambdaBundling.format,
    minify: lambdaBundling.minify,
    sourcemap: lambdaBundling.sourceMap,
    sourcesContent: lambdaBundling.sourcesContent,
    mainFields: [...lambdaBundling.mainFields],
    external: bundleAwsSdk ? [] : [...runtimeSdkModules],
    ...(bundleAwsSdk ? { alias: { ...lambdaBundling.alias } } : {}),
    absWorkingDir: repoRoot,
    metafile: true,
    logLevel: 'warning',
  };
}
