/**
 * A memory of route contents, by vehicle and sequence of stops: here, the routes the local
 * search's within-route moves (2-opt, or-opt) cannot improve.
 *
 * Why: in the annealing most descents look again at a route they have already seen. A ruin that
 * takes a few jobs out of a route and a recreate that puts them back where they were make a new
 * route object with the old content, and the descent over it is a full pass that finds nothing.
 * On R205 (three routes of about 33 jobs) 69 % of the within-route descents were over a content
 * already known to be a local optimum, and they were most of an iteration's time.
 *
 * Contents are keyed by two independent 32-bit hashes of the stop sequence, with the vehicle and
 * the length, in a direct-mapped table (a newer entry replaces an older one in its slot), so its
 * memory is fixed. A false match needs both hashes of two different sequences of one vehicle and
 * length to agree, and would only skip a descent, never make a route infeasible.
 */
import type { Route } from './route.ts';

const slots = 1 << 14;

export class RouteMemo {
  private readonly vehicle = new Int32Array(slots).fill(-1);
  private readonly length = new Int32Array(slots);
  private readonly first = new Int32Array(slots);
  private readonly second = new Int32Array(slots);
  private h1 = 0;
  private h2 = 0;

  has(route: Route): boolean {
    this.hash(route);
    const slot = this.h1 & (slots - 1);
    return (
      this.vehicle[slot] === route.vehicle &&
      this.length[slot] === route.len &&
      this.first[slot] === this.h1 &&
      this.second[slot] === this.h2
    );
  }

  add(route: Route) {
    this.hash(route);
    const slot = this.h1 & (slots - 1);
    this.vehicle[slot] = route.vehicle;
    this.length[slot] = route.len;
    this.first[slot] = this.h1;
    this.second[slot] = this.h2;
  }

  /** Two multiplicative hashes of the nodes between start and end (FNV-style, different primes). */
  private hash(route: Route) {
    const node = route.node;
    let h1 = 0x811c9dc5 | 0;
    let h2 = 0x01000193 | 0;
    for (let p = 1; p < route.len - 1; p++) {
      const x = node[p]!;
      h1 = Math.imul(h1 ^ x, 0x01000193);
      h2 = Math.imul(h2 ^ x, 0x5bd1e995) ^ (h2 >>> 15);
    }
    this.h1 = h1 ^ (h1 >>> 13);
    this.h2 = h2;
  }
}
