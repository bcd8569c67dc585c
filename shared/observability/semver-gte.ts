/**
 * What the Lambda bundles get for `semver` (lib/bundling.ts aliases it here): the X-Ray SDK
 * (aws-xray-sdk-core, under Powertools' Tracer) requires the whole package (28 KB minified, its
 * range parser built at load) for one `gte` call, in its AWS SDK v2 patcher (aws_p.js,
 * captureAWS / captureAWSClient), which this service never calls: the Tracer captures SDK v3
 * clients (aws3_p.js); the SDK requires cls-hooked's Node >= 8 context directly, not the index
 * that asks semver for the Node version. A plain `major.minor.patch` comparison is all that
 * call would need.
 */
function parts(version: string): number[] {
  return version
    .replace(/^[v=\s]+/, '')
    .split(/[.+-]/, 3)
    .map((part) => Number.parseInt(part, 10) || 0);
}

/** Whether version `a` is at least `b` (prerelease tags ignored). */
export function gte(a: string, b: string): boolean {
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) {
    const difference = (x[i] ?? 0) - (y[i] ?? 0);
    if (difference !== 0) return difference > 0;
  }
  return true;
}
