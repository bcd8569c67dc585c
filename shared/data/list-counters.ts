/**
 * The counters a list page reads (one BatchGetItem): the total's, the wanted partitions' (what a
 * walk can meet, what an estimate scales to) and the list's revision, with whether the revision
 * is old enough for kept state (list-cache.ts `revisionSettledAt`).
 */
import { type ListScope, listKeys } from './keys.ts';
import { revisionCounter, revisionSettledAt } from './list-cache.ts';
import type { ListSpec } from './list-index.ts';
import { getRecords } from './table.ts';

/** The counter names a total sums: per wanted segment, `countedBy` (or `all`). */
export function counterNamesOf(
  countedBy: string | readonly string[] | undefined,
  segments: ReadonlyArray<string | undefined>,
): string[] {
  const counted =
    countedBy === undefined ? [undefined] : typeof countedBy === 'string' ? [countedBy] : countedBy;
  return counted.flatMap((counter) =>
    segments.map((segment) =>
      segment === undefined ? (counter ?? 'all') : counter ? `${segment}#${counter}` : segment,
    ),
  );
}

/** Counters by name, in one BatchGetItem. */
export async function countersNamed<R extends { id: string }>(
  spec: ListSpec<R>,
  scope: ListScope,
  names: readonly string[],
): Promise<{ counters: Map<string, number>; revisionSettled: boolean }> {
  const unique = [...new Set(names)];
  if (unique.length === 0) return { counters: new Map(), revisionSettled: false };
  const readAt = Date.now();
  const found = await getRecords(unique.map((name) => listKeys.counter(scope, spec.name, name)));
  const revision = found[unique.indexOf(revisionCounter)];
  return {
    counters: new Map(unique.map((name, i) => [name, Math.max(0, Number(found[i]?.count ?? 0))])),
    revisionSettled: revisionSettledAt(revision?.applied_at, readAt),
  };
}

export const sumOf = (counters: Map<string, number>, names: readonly string[]) =>
  names.reduce((sum, name) => sum + (counters.get(name) ?? 0), 0);
