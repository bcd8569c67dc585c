/**
 * JSON without null-valued keys: SPEC.md's "Absent values" (responses omit keys that have no
 * value and never emit `"field": null`) enforced where answers are serialised, so no resource
 * has to remember it. Array elements keep their places (a null element is a value of its own).
 * Used for every REST body and every event-stream envelope.
 *
 * One key keeps its nulls: `previous_attributes` (webhook envelopes, and audit-log entries that
 * show the same event), where a key present with null says "this used to be empty" and an absent
 * key says "this did not change" (SPEC.md, Webhooks → Envelope).
 */
const keepsNulls = 'previous_attributes';

export function stringifyWithoutNulls(value: unknown): string {
  const exempt = new WeakSet<object>();
  return JSON.stringify(value, function dropNullKeys(this: unknown, key: string, inner: unknown) {
    if (key === keepsNulls && inner !== null && typeof inner === 'object') exempt.add(inner);
    if (inner !== null || key === '' || Array.isArray(this)) return inner;
    return exempt.has(this as object) ? inner : undefined;
  });
}

/** The same rule as a value: a copy of `value` without null-valued keys, at every depth. */
export function withoutNullKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutNullKeys) as T;
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (inner !== null) copy[key] = key === keepsNulls ? inner : withoutNullKeys(inner);
  }
  return copy as T;
}
