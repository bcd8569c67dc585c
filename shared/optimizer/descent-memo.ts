/**
 * What the local search already knows to be a local optimum, so that it does not look again:
 * - routes (by vehicle and sequence of stops) that no 2-opt or or-opt move improves;
 * - jobs that no move between routes improves, given their route and the routes of their nearest
 *   neighbours (by the contents of those routes).
 *
 * Why: in the annealing most descents look at contents they have already seen. A ruin that takes
 * a few jobs out of a route and a recreate that puts them back where they were make a new route
 * object with the old content, and a descent over it is a full pass that finds nothing. On R205
 * (three routes of about 33 jobs) 69 % of the within-route descents were over a content already
 * known to be a local optimum, and those passes were most of an iteration's time.
 *
 * Contents are keyed by two independent 32-bit hashes and a tag (the vehicle, or the job) in a
 * direct-mapped table: a newer entry replaces an older one in its slot, so the memory is fixed. A
 * false match needs both hashes of two different contents with one tag to agree, and would only
 * skip a descent, never make a route infeasible.
 */
import type { Route } from './route.ts';
import type { Solution } from './solution.ts';

const slots = 1 << 14;

/** A fixed-size set of (tag, hash, hash) keys. */
export class HashMemo {
  private readonly tag = new Int32Array(slots).fill(-1);
  private readonly first = new Int32Array(slots);
  private readonly second = new Int32Array(slots);

  has(tag: number, h1: number, h2: number): boolean {
    const slot = h1 & (slots - 1);
    return this.tag[slot] === tag && this.first[slot] === h1 && this.second[slot] === h2;
  }

  add(tag: number, h1: number, h2: number) {
    const slot = h1 & (slots - 1);
    this.tag[slot] = tag;
    this.first[slot] = h1;
    this.second[slot] = h2;
  }
}

/** Two multiplicative hash steps with different primes (FNV-style, and MurmurHash's constant). */
const step1 = (h: number, x: number) => Math.imul(h ^ x, 0x01000193);
const step2 = (h: number, x: number) => Math.imul(h ^ x, 0x5bd1e995) ^ (h >>> 15);

/**
 * Hashes of route contents, computed once per route version (a version is unique per content,
 * whichever solution holds the route).
 */
export class ContentHashes {
  private readonly version: Float64Array;
  private readonly first: Int32Array;
  private readonly second: Int32Array;
  h1 = 0;
  h2 = 0;

  constructor(vehicleCount: number) {
    this.version = new Float64Array(vehicleCount).fill(-1);
    this.first = new Int32Array(vehicleCount);
    this.second = new Int32Array(vehicleCount);
  }

  /** Sets h1 and h2 to the hashes of the route's stops, its length included. */
  of(route: Route) {
    const v = route.vehicle;
    if (this.version[v] !== route.version) {
      const node = route.node;
      let h1 = 0x811c9dc5 | 0;
      let h2 = route.len;
      for (let p = 1; p < route.len - 1; p++) {
        h1 = step1(h1, node[p]!);
        h2 = step2(h2, node[p]!);
      }
      this.version[v] = route.version;
      this.first[v] = h1 ^ (h1 >>> 13);
      this.second[v] = h2;
    }
    this.h1 = this.first[v]!;
    this.h2 = this.second[v]!;
  }
}

/** Routes that no move within them improves. */
export class RouteMemo {
  private readonly memo = new HashMemo();
  private readonly hashes: ContentHashes;
  /** `hashes` may be shared with a JobMemo: a route version is hashed once for both. */
  constructor(hashes: ContentHashes) {
    this.hashes = hashes;
  }
  has(route: Route): boolean {
    this.hashes.of(route);
    return this.memo.has(route.vehicle, this.hashes.h1, this.hashes.h2);
  }
  add(route: Route) {
    this.hashes.of(route);
    this.memo.add(route.vehicle, this.hashes.h1, this.hashes.h2);
  }
}

/**
 * Jobs that no move between routes improves: keyed by the job, the content of its route and,
 * for each of its `granularity` nearest neighbours, the vehicle and content of the neighbour's
 * route (what the moves from the job look at).
 */
export class JobMemo {
  private readonly memo = new HashMemo();
  private readonly hashes: ContentHashes;
  private h1 = 0;
  private h2 = 0;
  constructor(hashes: ContentHashes) {
    this.hashes = hashes;
  }

  has(solution: Solution, u: number, neighbours: Int32Array, base: number, granularity: number): boolean {
    this.key(solution, u, neighbours, base, granularity);
    return this.memo.has(u, this.h1, this.h2);
  }

  add(solution: Solution, u: number, neighbours: Int32Array, base: number, granularity: number) {
    this.key(solution, u, neighbours, base, granularity);
    this.memo.add(u, this.h1, this.h2);
  }

  private key(solution: Solution, u: number, neighbours: Int32Array, base: number, granularity: number) {
    const hashes = this.hashes;
    const routes = solution.routes;
    const jobRoute = solution.jobRoute;
    const own = jobRoute[u]!;
    hashes.of(routes[own]!);
    let h1 = step1(hashes.h1, own);
    let h2 = step2(hashes.h2, own);
    for (let k = 0; k < granularity; k++) {
      const r = jobRoute[neighbours[base + k]!]!;
      if (r < 0 || r === own) {
        h1 = step1(h1, r);
        h2 = step2(h2, r);
        continue;
      }
      hashes.of(routes[r]!);
      h1 = step1(step1(h1, r), hashes.h1);
      h2 = step2(step2(h2, r), hashes.h2);
    }
    this.h1 = h1;
    this.h2 = h2;
  }
}
