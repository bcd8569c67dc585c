/**
 * Due work a plan could not finish by its due date (API-DECISIONS.md, "Maintenance plans and
 * service levels": runs treat `due_by` as a hard end unless it cannot be met, then plan the work
 * as early as possible and report it late). The search plans due work with its windows cut at the
 * due date (planning-problem.ts); what it leaves out, and work whose due date no window can meet,
 * is then fitted into the plan here, each where it starts earliest (the least driving on a tie),
 * most urgent and earliest due first, without moving anything the plan already holds: every other
 * stop keeps its windows, its due date and the shift's end. What fits nowhere stays out, with its
 * reason. The result marks each stop that ends after its due date `late` (planning-result.ts).
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
  const candidates = [...late].filter(([id, entry]) => !entry.searched || left.has(id));
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
    let best: Placement | undefined;
    for (const route of routes) {
      const placement = earliestIn(route, task, model.travel);
      if (placement && (!best || placement.start < best.start)) best = placement;
    }
    if (!best) continue;
    best.route.tasks = best.tasks;
    changed.add(best.route);
    placed.add(task.job.id);
  }
  const unsearched = candidates
    .filter(([id, entry]) => !entry.searched && !placed.has(id))
    .map(([id]) => ({ id }));
  return {
    routes: routes.flatMap((route) =>
      changed.has(route)
        ? (answerRoute(route, model.travel, matrix) ?? [])
        : (answered.get(route.vehicle.id) ?? []),
    ),
    unassigned: [...answer.unassigned.filter((entry) => !placed.has(entry.id)), ...unsearched],
  };
}
