/**
 * The searches of parallel.ts sharing their best solutions through shared memory, so that a
 * search whose annealing went the worse way takes up the better one's solution and spends the
 * rest of its time on it with its own random choices.
 *
 * Why: on the large instances each search is one long annealing, and where it ends is decided
 * early and varies widely. RC2_10_1 from one 20-vehicle start, eight seeds, 30 s: +2.2 to +4.3 %
 * of the best-known distance, the order already set after a third of the time (at 8 s the two
 * best were the two best at the end and the worst the worst). Two independent searches keep the
 * better of two such draws; meeting halfway, both spend the second half on the better one.
 *
 * The board is one SharedArrayBuffer with a slot per search: the objective as three float64
 * (priority left out, jobs left out, cost) and the routes as int32 (per vehicle its length, then
 * its nodes, breaks included), guarded by a sequence number that is odd while the slot is being
 * written (a seqlock: a reader keeps what it copied only if the number was even and unchanged
 * around the copy). No search waits for another: each publishes its best now and then, and at
 * the meeting times takes a slot's solution if it is strictly better than its own. A copy is
 * checked (every job once, every route feasible) before it is used.
 */
import type { Solution } from './solution.ts';

/** What a search needs to join a board: the buffer, the searches' count and its own slot. */
export interface BoardSeat {
  buffer: SharedArrayBuffer;
  searches: number;
  slot: number;
}

/** Int32 cells a slot needs for a problem: the sequence number, then a length per vehicle and every node. */
function slotInts(vehicles: number, nodes: number): number {
  return 1 + vehicles + nodes;
}

/** A board for `searches` searches of a problem with these counts (breaks are nodes of routes too). */
export function createBoard(
  searches: number,
  vehicles: number,
  jobs: number,
  breaks: number,
): SharedArrayBuffer {
  const floats = 3 * searches;
  return new SharedArrayBuffer(8 * floats + 4 * searches * slotInts(vehicles, jobs + breaks));
}

export class SolutionBoard {
  private readonly objectives: Float64Array;
  private readonly ints: Int32Array;
  private readonly searches: number;
  private readonly slot: number;
  private readonly stride: number;
  private readonly copy: Int32Array;

  /** Null when the buffer does not fit the problem (it came from another input). */
  static join(seat: BoardSeat, vehicles: number, nodes: number): SolutionBoard | null {
    const stride = slotInts(vehicles, nodes);
    if (seat.buffer.byteLength !== 8 * 3 * seat.searches + 4 * seat.searches * stride) return null;
    return new SolutionBoard(seat, stride);
  }

  private constructor(seat: BoardSeat, stride: number) {
    this.searches = seat.searches;
    this.slot = seat.slot;
    this.stride = stride;
    this.objectives = new Float64Array(seat.buffer, 0, 3 * seat.searches);
    this.ints = new Int32Array(seat.buffer, 8 * 3 * seat.searches, seat.searches * stride);
    this.copy = new Int32Array(stride);
  }

  /** Writes `solution` into this search's slot. */
  publish(solution: Solution) {
    const ints = this.ints;
    const base = this.slot * this.stride;
    Atomics.add(ints, base, 1);
    let at = base + 1;
    for (const route of solution.routes) {
      ints[at++] = route.len - 2;
      for (let p = 1; p < route.len - 1; p++) ints[at++] = route.node[p]!;
    }
    const o = 3 * this.slot;
    this.objectives[o] = solution.unassignedPriority;
    this.objectives[o + 1] = solution.unassignedCount;
    this.objectives[o + 2] = solution.cost;
    Atomics.add(ints, base, 1);
  }

  /**
   * Replaces `into` by the best solution another search has published, when that is strictly
   * better than `own`; returns whether it did. `into` is scratch: when no copy is taken it holds
   * an unspecified solution and the caller restores it.
   */
  adoptBetter(own: Solution, into: Solution): boolean {
    const ownPriority = own.unassignedPriority;
    const ownCount = own.unassignedCount;
    const ownCost = own.cost;
    let pick = -1;
    let pickObjective: [number, number, number] = [ownPriority, ownCount, ownCost - 1e-6 * Math.abs(ownCost)];
    for (let s = 0; s < this.searches; s++) {
      if (s === this.slot || Atomics.load(this.ints, s * this.stride) === 0) continue;
      const o = 3 * s;
      const objective: [number, number, number] = [
        this.objectives[o]!,
        this.objectives[o + 1]!,
        this.objectives[o + 2]!,
      ];
      if (
        (objective[0] - pickObjective[0] ||
          objective[1] - pickObjective[1] ||
          objective[2] - pickObjective[2]) < 0
      ) {
        pick = s;
        pickObjective = objective;
      }
    }
    if (pick < 0) return false;
    if (!this.read(pick)) return false;
    return this.decode(into) && into.compare(own) < 0;
  }

  /** Copies slot `s` unless it is being written or was rewritten during the copy. */
  private read(s: number): boolean {
    const base = s * this.stride;
    const before = Atomics.load(this.ints, base);
    if (before % 2 === 1) return false;
    this.copy.set(this.ints.subarray(base, base + this.stride));
    return Atomics.load(this.ints, base) === before;
  }

  /** Builds the copied routes into `solution`; false when they are not a complete, feasible plan. */
  private decode(solution: Solution): boolean {
    const problem = solution.problem;
    const copy = this.copy;
    solution.reset();
    let at = 1;
    const seen = new Uint8Array(problem.jobCount);
    for (const route of solution.routes) {
      const count = copy[at++]!;
      if (count < 0 || at + count > copy.length) return false;
      for (let k = 0; k < count; k++) {
        const node = copy[at + k]!;
        if (node < 0) return false;
        if (node < problem.jobCount) {
          if (seen[node] === 1) return false;
          seen[node] = 1;
        } else {
          // A break, of this vehicle only.
          const b = node - problem.jobCount;
          if (b < problem.breakOffset[route.vehicle]! || b >= problem.breakOffset[route.vehicle + 1]!)
            return false;
        }
      }
      route.setNodes(copy.subarray(at, at + count), count);
      at += count;
      if (!route.refresh()) return false;
    }
    for (let j = 0; j < problem.jobCount; j++) if (seen[j] === 1) solution.markAssigned(j);
    return true;
  }
}
