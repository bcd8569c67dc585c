/**
 * Merge by field against `base_version` (API-DECISIONS.md, "Offline sync for field apps"): a field
 * the device changed that the server did not change since the device's base version applies; a
 * field both changed keeps the server's value and is reported, with both values, so the app can
 * show the technician what won. Fields are compared by value (JSON), so a device that set the
 * value the server already has is no conflict.
 */
export interface FieldConflict {
  field: string;
  yours: unknown;
  theirs: unknown;
}

export interface FieldMerge {
  /** The fields to write (the device's values). */
  apply: Record<string, unknown>;
  conflicts: FieldConflict[];
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * `changes`: the device's fields; `server`: the record now; `changedSinceBase`: the fields the
 * server's versions after `base_version` changed (from its events' previous attributes).
 */
export function mergeFields(
  changes: Readonly<Record<string, unknown>>,
  server: Readonly<Record<string, unknown>>,
  changedSinceBase: ReadonlySet<string>,
): FieldMerge {
  const apply: Record<string, unknown> = {};
  const conflicts: FieldConflict[] = [];
  for (const [field, yours] of Object.entries(changes)) {
    const theirs = server[field];
    if (same(yours, theirs)) continue;
    if (changedSinceBase.has(field)) conflicts.push({ field, yours, theirs });
    else apply[field] = yours;
  }
  return { apply, conflicts };
}
