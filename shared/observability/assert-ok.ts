/**
 * What the Lambda bundles get for `assert` (lib/bundling.ts aliases it here): the only module
 * of theirs that requires it is cls-hooked (the X-Ray SDK's context, under Powertools' Tracer),
 * for `assert.ok` invariant checks; loading Node's assert module costs ~1 ms of every cold
 * start (its diff and error machinery). The same check, throwing the same kind of error.
 */
export function ok(value: unknown, message?: string): asserts value {
  if (!value) {
    const error = new Error(message ?? 'The expression evaluated to a falsy value');
    error.name = 'AssertionError';
    throw error;
  }
}

export default ok;
