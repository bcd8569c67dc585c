/**
 * The plan of a REPAIR run (API-DECISIONS.md, "The live day"): the rest of a day that drifted,
 * re-planned with the fewest changes. Pure: it reads the run's problem in the optimizer's terms
 * (planning-problem.ts `toVroomInput`: the same windows, skills, locks and breaks a PLAN run's
 * search sees) and each shift's remaining stops in their current order, and answers as the
 * optimizer does (a VROOM output), so the result, its reasons and its apply are a run's like any
 * other.
 *
 * Objective, in this order: leave out as little work as possible (urgent work last), then change
 * as little as possible — a stop given to another shift or moved in its order is a change — then
 * drive as little as possible. A plan that still works is kept as it is (no change at all).
 * Otherwise, shift by shift, while its day does not work (day-schedule.ts, exact with breaks):
 *   1. move one stop elsewhere in its own order (one change), the least driving first;
 *   2. else give one stop to another of the shifts where it fits (one change);
 *   3. else leave out one stop: of the stops up to the first that cannot be reached in time, the
 *      least urgent whose removal lets the day go furthest (a later one on a tie).
 * Then the stops left out and the cases the run adds are fitted in where they add the least
 * driving (their own shift first), most urgent and earliest due first. Greedy, not exhaustive: a
 * day of n stops costs O(n³) schedule checks at most per change, milliseconds for a day's work.
 */
import type { VroomAnswer } from '../scheduling/planning-result.ts';
import type { TravelMatrix } from '../scheduling/travel.ts';
import {
  answerRoute,
  byUrgency,
  canServe,
  dayModel,
  drivingOf,
  type Job,
  type ProblemInput,
  type Route,
  scheduleOf,
  type Task,
  type Travel,
  type Vehicle,
} from './day-routes.ts';

export type RepairInput = ProblemInput;

export interface RepairAnswer {
  answer: VroomAnswer;
  /** Stops kept on their shift whose place in its order changed. */
  reordered: number;
  /** Stops given to another shift. */
  reassigned: number;
}

export function repairPlan(
  input: RepairInput,
  /** Per vehicle (in input order), the job ids of its remaining stops in their current order. */
  current: ReadonlyArray<readonly number[]>,
  matrix: TravelMatrix,
): RepairAnswer {
  const jobs = input.jobs as unknown as Job[];
  const model = dayModel(matrix);
  const routes = model.routes(input.vehicles as unknown as Vehicle[], current, jobs);
  const originalRoute = new Map<number, number>();
  const originalOrder = routes.map((route, index) => {
    for (const task of route.tasks) originalRoute.set(task.job.id, index);
    return route.tasks.map((task) => task.job.id);
  });
  const planner = new RepairPlanner(routes, model.travel);
  const leftOut: Task[] = [];
  // A stop its technician may not take (a skill, a lock to someone else) has to go elsewhere.
  for (const route of routes) {
    leftOut.push(...route.tasks.filter((task) => !canServe(route, task)));
    route.tasks = route.tasks.filter((task) => canServe(route, task));
  }
  for (const route of routes) leftOut.push(...planner.repair(route));
  const placed = new Set(routes.flatMap((route) => route.tasks.map((task) => task.job.id)));
  const added = jobs.filter((job) => !placed.has(job.id) && !originalRoute.has(job.id));
  const pending = [...leftOut, ...added.map(model.task)].sort(byUrgency);
  const unassigned = pending.filter((task) => !planner.fitIn(task, originalRoute.get(task.job.id)));
  return {
    answer: {
      routes: routes.flatMap((route) => answerRoute(route, model.travel, matrix) ?? []),
      unassigned: unassigned.map((task) => ({ id: task.job.id })),
    },
    ...changesOf(routes, originalRoute, originalOrder),
  };
}

export class RepairPlanner {
  private readonly routes: Route[];
  private readonly travel: Travel;

  constructor(routes: Route[], travel: Travel) {
    this.routes = routes;
    this.travel = travel;
  }

  schedule(route: Route, tasks: readonly Task[] = route.tasks) {
    return scheduleOf(route, tasks, this.travel);
  }

  driving(route: Route, tasks: readonly Task[]): number {
    return drivingOf(route, tasks, this.travel);
  }

  /** Makes the route's day work; answers the tasks it had to leave out. */
  repair(route: Route): Task[] {
    const leftOut: Task[] = [];
    while (!this.schedule(route)) {
      if (route.tasks.length === 0) break;
      if (this.moveWithin(route) || this.giveAway(route)) continue;
      leftOut.push(this.leaveOut(route));
    }
    return leftOut;
  }

  /** One stop moved elsewhere in the order, the least driving first. */
  private moveWithin(route: Route): boolean {
    let best: { tasks: Task[]; cost: number } | undefined;
    const n = route.tasks.length;
    for (let from = 0; from < n; from++) {
      const rest = route.tasks.filter((_, index) => index !== from);
      for (let to = 0; to < n; to++) {
        if (to === from) continue;
        const tasks = [...rest.slice(0, to), route.tasks[from] as Task, ...rest.slice(to)];
        const cost = this.driving(route, tasks);
        if (best && cost >= best.cost) continue;
        if (this.schedule(route, tasks)) best = { tasks, cost };
      }
    }
    if (best) route.tasks = best.tasks;
    return best !== undefined;
  }

  /** One stop given to another shift where it fits and its own day then works, the least added driving first. */
  private giveAway(route: Route): boolean {
    let best: { index: number; other: Route; tasks: Task[]; cost: number } | undefined;
    route.tasks.forEach((task, index) => {
      const rest = route.tasks.filter((_, at) => at !== index);
      if (!this.schedule(route, rest)) return;
      for (const other of this.routes) {
        if (other === route) continue;
        const insertion = this.cheapestInsertion(other, task);
        if (insertion && (!best || insertion.cost < best.cost)) {
          best = { index, other, tasks: insertion.tasks, cost: insertion.cost };
        }
      }
    });
    if (!best) return false;
    route.tasks = route.tasks.filter((_, at) => at !== best?.index);
    best.other.tasks = best.tasks;
    return true;
  }

  /** How far (in tasks) the day gets before the first task it cannot reach in time. */
  private reach(route: Route, tasks: readonly Task[]): number {
    for (let count = 1; count <= tasks.length; count++) {
      if (!this.schedule(route, tasks.slice(0, count))) return count - 1;
    }
    return tasks.length;
  }

  /** Leaves out the least urgent stop, up to the first unreachable one, that lets the day go furthest. */
  private leaveOut(route: Route): Task {
    const blocked = Math.min(this.reach(route, route.tasks), route.tasks.length - 1);
    let best: { index: number; priority: number; reach: number } | undefined;
    for (let index = 0; index <= blocked; index++) {
      const priority = (route.tasks[index] as Task).job.priority;
      const reach = this.reach(
        route,
        route.tasks.filter((_, at) => at !== index),
      );
      const better =
        !best ||
        priority < best.priority ||
        (priority === best.priority && (reach > best.reach || (reach === best.reach && index > best.index)));
      if (better) best = { index, priority, reach };
    }
    const index = best?.index ?? blocked;
    const [task] = route.tasks.splice(index, 1);
    return task as Task;
  }

  private cheapestInsertion(route: Route, task: Task): { tasks: Task[]; cost: number } | undefined {
    if (!canServe(route, task)) return undefined;
    const base = this.driving(route, route.tasks);
    let best: { tasks: Task[]; cost: number } | undefined;
    for (let at = 0; at <= route.tasks.length; at++) {
      const tasks = [...route.tasks.slice(0, at), task, ...route.tasks.slice(at)];
      const cost = this.driving(route, tasks) - base;
      if (best && cost >= best.cost) continue;
      if (this.schedule(route, tasks)) best = { tasks, cost };
    }
    return best;
  }

  /** Fits a task in: on its own shift if it can, else where it adds the least driving. */
  fitIn(task: Task, own: number | undefined): boolean {
    const home = own === undefined ? undefined : this.routes[own];
    const atHome = home ? this.cheapestInsertion(home, task) : undefined;
    if (home && atHome) {
      home.tasks = atHome.tasks;
      return true;
    }
    let best: { route: Route; tasks: Task[]; cost: number } | undefined;
    for (const route of this.routes) {
      if (route === home) continue;
      const insertion = this.cheapestInsertion(route, task);
      if (insertion && (!best || insertion.cost < best.cost)) best = { route, ...insertion };
    }
    if (best) best.route.tasks = best.tasks;
    return best !== undefined;
  }
}

/** Length of the longest common subsequence: the stops that kept their relative order. */
function keptInOrder(a: readonly number[], b: readonly number[]): number {
  const row = new Array<number>(b.length + 1).fill(0);
  for (const x of a) {
    let diagonal = 0;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j] as number;
      row[j] = x === b[j - 1] ? diagonal + 1 : Math.max(above, row[j - 1] as number);
      diagonal = above;
    }
  }
  return row[b.length] as number;
}

function changesOf(
  routes: readonly Route[],
  originalRoute: ReadonlyMap<number, number>,
  originalOrder: ReadonlyArray<readonly number[]>,
): { reordered: number; reassigned: number } {
  let reordered = 0;
  let reassigned = 0;
  routes.forEach((route, index) => {
    const stayed = route.tasks.map((task) => task.job.id).filter((id) => originalRoute.get(id) === index);
    reassigned += route.tasks.filter((task) => {
      const own = originalRoute.get(task.job.id);
      return own !== undefined && own !== index;
    }).length;
    const before = (originalOrder[index] ?? []).filter((id) => stayed.includes(id));
    reordered += stayed.length - keptInOrder(before, stayed);
  });
  return { reordered, reassigned };
}
