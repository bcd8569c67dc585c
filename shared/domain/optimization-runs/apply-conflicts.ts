/**
 * What makes an apply stop and undo: a record the plan writes that someone else changed since the
 * run read it (or since this apply wrote it), named for the run's `application.conflicts`.
 */
export type Ref = { type: 'case' | 'tour' | 'shift'; id: string };

/** A record is not as the plan needs it: the apply undoes what it wrote and ends in CONFLICT. */
export class ApplyConflict extends Error {
  override readonly name = 'ApplyConflict';
  readonly refs: Ref[];

  constructor(refs: Ref[]) {
    super(
      `records changed since the run read them: ${refs.map((ref) => `${ref.type} ${ref.id}`).join(', ')}`,
    );
    this.refs = refs;
  }
}

/** The refs once each, in the order first named. */
export function uniqueRefs(refs: readonly Ref[]): Ref[] {
  const seen = new Set<string>();
  return refs.filter((ref) => {
    const key = `${ref.type}:${ref.id}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
