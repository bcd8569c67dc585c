/**
 * Due work a plan could not finish by its due date (API-DECISIONS.md, "Maintenance plans and
 * service levels": runs treat `due_by` as a hard end unless it cannot be met, then plan the work
 * as early as possible and report it late). The search plans due work first (a priority above all
 * but urgent and locked work), with its windows cut at the due date where a window can meet it
 * (planning-problem.ts), else with its windows as they are. Then, here, most urgent and earliest
 * due first:
 * - work whose due date no window can meet, planned late by the search, moves to where it starts
 *   earliest (the least driving on a tie), if that is earlier than where the search put it;
 * - due work the search left out (its due date met nowhere beside the rest) is fitted in where it
 *   starts earliest, late;
 * never moving anything else: every other stop keeps its windows, its due date and the shift's
 * end. What fits nowhere stays out, with its reason. The result marks each stop that ends after
 * its due date `late` (planning-result.ts).
 */
import type { VroomTranslation } from '../scheduling/planning-problem.ts';
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

interface Placement {
  route: Route;
  tasks: Task[];
  start: number;
  added: number;
}

/** Where `task` starts earliest in `route` with the whole day still working. */
function earliestIn(route: Route, task: Task, travel: Travel): Placement | undefined {
  if (!canServe(route, task)) return undefined;
  const base = drivingOf(route, route.tasks, travel);
  let best: Placement | undefined;
  for (let at = 0; at <= route.tasks.length; at++) {
    const tasks = [...route.tasks.slice(0, at), task, ...route.tasks.slice(at)];
    const schedule = scheduleOf(route, tasks, travel);
    if (!schedule) continue;
    const start = (schedule.tasks[at] as { start: number }).start;
    const added = drivingOf(route, tasks, travel) - base;
    if (!best || start < best.start || (start === best.start && added < best.added)) {
      best = { route, tasks, start, added };
    }
  }
  return best;
}

export function planLate(
  input: ProblemInput,
  late: VroomTranslation['late'],
  answer: VroomAnswer,
  matrix: TravelMatrix,
): VroomAnswer {
  const left = new Set(answer.unassigned.map((entry) => entry.id));
  const candidates = [...late].filter(([id, entry]) => !entry.meetable || left.has(id));
  if (candidates.length === 0) return answer;
  const vehicles = input.vehicles as unknown as Vehicle[];
  const answered = new Map(answer.routes.map((route) => [route.vehicle, route]));
  const orders = vehicles.map((vehicle) =>
    (answered.get(vehicle.id)?.steps ?? []).flatMap((step) =>
      step.type === 'job' && step.id !== undefined ? [step.id] : [],
    ),
  );
  const model = dayModel(matrix);
  const routes = model.routes(vehicles, orders, input.jobs as unknown as Job[]);
  const changed = new Set<Route>();
  const placed = new Set<number>();
  const tasks = candidates.map(([, entry]) => model.task(entry.job as unknown as Job)).sort(byUrgency);
  for (const task of tasks) {
    // Where the search put it, if it did: it moves only to start earlier.
    const home = routes.find((route) => route.tasks.some((held) => held.job.id === task.job.id));
    const at = home ? home.tasks.findIndex((held) => held.job.id === task.job.id) : -1;
    const planned = home
      ? (scheduleOf(home, home.tasks, model.travel)?.tasks[at]?.start ?? Number.POSITIVE_INFINITY)
      : Number.POSITIVE_INFINITY;
    if (home) home.tasks = home.tasks.filter((held) => held.job.id !== task.job.id);
    let best: Placement | undefined;
    for (const route of routes) {
      const placement = earliestIn(route, task, model.travel);
      if (placement && (!best || placement.start < best.start)) best = placement;
    }
    if (!best || best.start >= planned) {
      if (home) home.tasks.splice(at, 0, task);
      continue;
    }
    best.route.tasks = best.tasks;
    changed.add(best.route);
    if (home) changed.add(home);
    placed.add(task.job.id);
  }
  return {
    routes: routes.flatMap((route) =>
      changed.has(route)
        ? (answerRoute(route, model.travel, matrix) ?? [])
        : (answered.get(route.vehicle.id) ?? []),
    ),
    unassigned: answer.unassigned.filter((entry) => !placed.has(entry.id)),
  };
}
