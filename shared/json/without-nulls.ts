/**
 * JSON without null-valued keys: SPEC.md's "Absent values" (responses omit keys that have no
 * value and never emit `"field": null`) enforced where answers are serialised, so no resource
 * has to remember it. Array elements keep their places (a null element is a value of its own).
 * Used for every REST body and every event-stream envelope; webhook `previous_attributes` keep
 * their nulls, since there a null says "this used to be empty" (envelope.ts).
 */
function dropNullKeys(this: unknown, key: string, value: unknown): unknown {
  return value === null && key !== '' && !Array.isArray(this) ? undefined : value;
}

export function stringifyWithoutNulls(value: unknown): string {
  return JSON.stringify(value, dropNullKeys);
}

/** The same rule as a value: a copy of `value` without null-valued keys, at every depth. */
export function withoutNullKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutNullKeys) as T;
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) if (inner !== null) copy[key] = withoutNullKeys(inner);
  return copy as T;
}
