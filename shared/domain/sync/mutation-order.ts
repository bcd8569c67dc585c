/**
 * Which mutations of a push apply (docs/offline-sync.md, "Push"; API-DECISIONS.md, "Offline sync
 * for field apps"): each installation's mutation ids increase by one; an id at or below the last
 * applied one is a replay and answers its stored result; an id past the next one is a gap, and the
 * push is refused whole (the app resends from the id after `last_mutation_id`). Ids that do not
 * increase within one push are refused by the push's schema before this (422 at their pointer);
 * here they count as a gap, so nothing of such a push could apply.
 */
export type MutationStep = { replay: number } | { apply: number };

export type PushOrder = { steps: MutationStep[] } | { gap: { lastMutationId: number; next: number } };

export function pushOrder(lastMutationId: number, ids: readonly number[]): PushOrder {
  const steps: MutationStep[] = [];
  let last = lastMutationId;
  for (const id of ids) {
    if (id <= last) {
      // At or below what an earlier push applied: a replay (ids applied by this push cannot
      // come again, see above).
      if (id <= lastMutationId) steps.push({ replay: id });
      else return { gap: { lastMutationId: last, next: id } };
      continue;
    }
    if (id !== last + 1) return { gap: { lastMutationId: last, next: id } };
    steps.push({ apply: id });
    last = id;
  }
  return { steps };
}
