/**
 * What `Route.refresh()` recomputes after every change, in three passes over the route:
 * - forwards: places, earliest service starts E and departures D, travel costs (cc, and cr driven
 *   backwards), the nearest real stops around each position, and where each job now sits;
 * - backwards: latest service starts L that keep the rest of the route feasible;
 * - loads: deliveries and pickups up to each position per dimension, and with pickups the load
 *   leaving each position with its running maxima from the front and the back.
 * Breaks follow VROOM's rule (route.ts): taken on the leg after the previous stop, as early as
 * their windows allow, waiting for a break window spent driving. Each pass answers whether the
 * route is feasible as far as it can tell.
 */
import type { Route } from './route.ts';
import { earliestStart, latestStart } from './time-windows.ts';

/** Node ids of a route's first and last positions (jobs are 0..n-1, breaks n and up). */
export const startNode = -1;
export const endNode = -2;

/** Earliest times, places, costs, neighbours of real stops, and the jobs' positions. */
export function forwardPass(route: Route): boolean {
  const problem = route.problem;
  const n = problem.jobCount;
  const v = route.vehicle;
  const node = route.node;
  const place = route.place;
  const E = route.E;
  const D = route.D;
  const cc = route.cc;
  const cr = route.cr;
  const prevReal = route.prevReal;
  const nextReal = route.nextReal;
  const durations = route.durations;
  const costs = route.costs;
  const size = route.placeCount;
  const service = problem.service;
  const len = route.len;
  let feasible = true;
  let jobs = 0;
  place[0] = problem.startPlace[v]!;
  E[0] = problem.vehicleStart[v]!;
  D[0] = E[0]!;
  cc[0] = 0;
  cr[0] = 0;
  prevReal[0] = -1;
  let last = 0;
  let t = D[0]!;
  let p = 1;
  while (p < len) {
    let q = p;
    while (node[q]! >= n) q++;
    const target = node[q]!;
    const targetPlace = target === endNode ? problem.endPlace[v]! : problem.jobPlace[target]!;
    const lastPlace = place[last]!;
    const d = durations[lastPlace * size + targetPlace]!;
    let arrival: number;
    if (q > p) {
      let current = t;
      let breakService = 0;
      for (let b = p; b < q; b++) {
        const start = earliestStart(problem, node[b]!, current);
        if (start === Number.POSITIVE_INFINITY) feasible = false;
        E[b] = start;
        D[b] = start + service[node[b]!]!;
        current = D[b]!;
        breakService += service[node[b]!]!;
        place[b] = lastPlace;
        cc[b] = cc[last]!;
        cr[b] = cr[last]!;
        prevReal[b] = last;
        nextReal[b] = q;
      }
      arrival = t + d + breakService > current ? t + d + breakService : current;
    } else {
      arrival = t + d;
    }
    if (target === endNode) {
      if (arrival > problem.vehicleEnd[v]!) feasible = false;
      E[q] = arrival;
      D[q] = arrival;
    } else {
      const start = earliestStart(problem, target, arrival);
      if (start === Number.POSITIVE_INFINITY) feasible = false;
      E[q] = start;
      D[q] = start + service[target]!;
      route.jobRoute[target] = v;
      route.jobPos[target] = q;
      jobs++;
    }
    cc[q] = cc[last]! + costs[lastPlace * size + targetPlace]!;
    cr[q] = cr[last]! + costs[targetPlace * size + lastPlace]!;
    place[q] = targetPlace;
    prevReal[q] = last;
    nextReal[last] = q;
    t = D[q]!;
    last = q;
    p = q + 1;
  }
  nextReal[len - 1] = -1;
  route.jobs = jobs;
  return feasible;
}

/** Latest service starts, from the end backwards (needs the forward pass's nextReal). */
export function backwardPass(route: Route): boolean {
  const problem = route.problem;
  const n = problem.jobCount;
  const node = route.node;
  const place = route.place;
  const E = route.E;
  const L = route.L;
  const durations = route.durations;
  const size = route.placeCount;
  const service = problem.service;
  const len = route.len;
  let feasible = true;
  L[len - 1] = problem.vehicleEnd[route.vehicle]!;
  for (let r = len - 2; r >= 0; r--) {
    if (node[r]! >= n) continue;
    const next = route.nextReal[r]!;
    const d = durations[place[r]! * size + place[next]!]!;
    let latestDeparture: number;
    if (next > r + 1) {
      let lambda = L[next]!;
      let breakService = 0;
      for (let b = next - 1; b > r; b--) {
        const s = service[node[b]!]!;
        lambda = latestStart(problem, node[b]!, lambda - s);
        L[b] = lambda;
        breakService += s;
      }
      const byTravel = L[next]! - d - breakService;
      latestDeparture = byTravel < lambda ? byTravel : lambda;
    } else {
      latestDeparture = L[next]! - d;
    }
    L[r] = r === 0 ? latestDeparture : latestStart(problem, node[r]!, latestDeparture - service[node[r]!]!);
    if (L[r]! < E[r]!) feasible = false;
  }
  return feasible;
}

/** Amounts up to each position and, with pickups, the load profile; false when a capacity is exceeded. */
export function loadPass(route: Route): boolean {
  const problem = route.problem;
  const n = problem.jobCount;
  const v = route.vehicle;
  const node = route.node;
  const len = route.len;
  const dims = problem.dimensions;
  const delivery = problem.delivery;
  const pickup = problem.pickup;
  const capacity = problem.capacity;
  let feasible = true;
  for (let k = 0; k < dims; k++) {
    let del = 0;
    let pick = 0;
    for (let i = 0; i < len; i++) {
      const j = node[i]!;
      if (j >= 0 && j < n) {
        del += delivery[j * dims + k]!;
        pick += pickup[j * dims + k]!;
      }
      route.deliveredBefore[i * dims + k] = del;
      route.pickedBefore[i * dims + k] = pick;
    }
    route.deliveryTotal[k] = del;
    route.pickupTotal[k] = pick;
    if (del > capacity[v * dims + k]! || pick > capacity[v * dims + k]!) feasible = false;
  }
  if (problem.hasPickups) {
    const load = route.load;
    for (let k = 0; k < dims; k++) {
      let max = 0;
      for (let i = 0; i < len; i++) {
        const value =
          route.deliveryTotal[k]! - route.deliveredBefore[i * dims + k]! + route.pickedBefore[i * dims + k]!;
        load[i * dims + k] = value;
        if (value > max) max = value;
        route.prefixMax[i * dims + k] = max;
      }
      max = 0;
      for (let i = len - 1; i >= 0; i--) {
        const value = load[i * dims + k]!;
        if (value > max) max = value;
        route.suffixMax[i * dims + k] = max;
      }
      if (route.prefixMax[(len - 1) * dims + k]! > capacity[v * dims + k]!) feasible = false;
    }
  }
  return feasible;
}
