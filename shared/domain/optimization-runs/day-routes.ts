/**
 * Routes of a run's problem in the optimizer's terms (planning-problem.ts `toVroomInput`), as the
 * day schedule sees them (day-schedule.ts: exact, breaks placed wherever they fit): what the
 * REPAIR planner (repair-plan.ts) and the late pass for due work (late-work.ts) edit, and how an
 * edited route is answered as the optimizer would (a VROOM output's route).
 */
import { type DayBreak, type DaySchedule, type DayTask, daySchedule } from '../scheduling/day-schedule.ts';
import type { VroomAnswer } from '../scheduling/planning-result.ts';
import type { TravelMatrix } from '../scheduling/travel.ts';

export type Window = [number, number];

export interface Job {
  id: number;
  location_index: number;
  service: number;
  skills: number[];
  priority: number;
  time_windows: Window[];
}

export interface Vehicle {
  id: number;
  start_index: number;
  end_index: number;
  time_window: Window;
  skills: number[];
  breaks: Array<{ id: number; time_windows: Window[]; service: number }>;
}

export interface ProblemInput {
  jobs: Array<Record<string, unknown>>;
  vehicles: Array<Record<string, unknown>>;
}

/** A place of the matrix, by its index (the schedule's travel reads it back). */
interface IndexedPlace {
  latitude: number;
  longitude: number;
  index: number;
}

export interface Task extends DayTask {
  job: Job;
}

export interface Route {
  vehicle: Vehicle;
  bounds: Parameters<typeof daySchedule>[0];
  tasks: Task[];
}

export type Travel = Parameters<typeof daySchedule>[2];

export interface DayModel {
  travel: Travel;
  /** The task of a job (its windows as given). */
  task(job: Job): Task;
  /** One route per vehicle, in input order, doing the jobs of `orders[i]` in that order. */
  routes(
    vehicles: readonly Vehicle[],
    orders: ReadonlyArray<readonly number[]>,
    jobs: readonly Job[],
  ): Route[];
}

const breakOf = (pause: Vehicle['breaks'][number]): DayBreak => {
  const [earliest, latestStart] = pause.time_windows[0] ?? [0, 0];
  return { earliestStart: earliest, latestEnd: latestStart + pause.service, durationSeconds: pause.service };
};

export function dayModel(matrix: TravelMatrix): DayModel {
  const places = new Map<number, IndexedPlace>();
  const place = (index: number) => {
    let found = places.get(index);
    if (!found) {
      found = { latitude: 0, longitude: 0, index };
      places.set(index, found);
    }
    return found;
  };
  const travel = ((a: IndexedPlace, b: IndexedPlace) =>
    matrix.durations[a.index]?.[b.index] ?? Number.POSITIVE_INFINITY) as unknown as Travel;
  const task = (job: Job): Task => ({
    caseId: String(job.id),
    place: place(job.location_index),
    durationSeconds: job.service,
    windows: job.time_windows,
    job,
  });
  return {
    travel,
    task,
    routes(vehicles, orders, jobs) {
      const byId = new Map(jobs.map((job) => [job.id, job]));
      return vehicles.map((vehicle, index) => ({
        vehicle,
        bounds: {
          start: vehicle.time_window[0],
          end: vehicle.time_window[1],
          startPlace: place(vehicle.start_index),
          endPlace: place(vehicle.end_index),
          breaks: vehicle.breaks.map(breakOf),
        },
        tasks: (orders[index] ?? []).flatMap((id) => {
          const job = byId.get(id);
          return job ? [task(job)] : [];
        }),
      }));
    },
  };
}

/** Most urgent first, then the earliest due. */
export function byUrgency(a: Task, b: Task): number {
  const due = (task: Task) => task.job.time_windows.at(-1)?.[1] ?? Number.POSITIVE_INFINITY;
  return b.job.priority - a.job.priority || due(a) - due(b) || a.job.id - b.job.id;
}

export const canServe = (route: Route, task: Task) =>
  task.job.skills.every((skill) => route.vehicle.skills.includes(skill));

/** Metres and seconds of driving of a route doing `tasks`. */
export function drivingOf(route: Route, tasks: readonly Task[], travel: Travel): number {
  let total = 0;
  let from = route.bounds.startPlace;
  for (const task of tasks) {
    total += travel(from, task.place);
    from = task.place;
  }
  return total + travel(from, route.bounds.endPlace);
}

export function scheduleOf(route: Route, tasks: readonly Task[], travel: Travel): DaySchedule | undefined {
  return daySchedule(route.bounds, tasks, travel);
}

/** A route as the optimizer answers it: its job steps with their times, driving and distance. */
export function answerRoute(
  route: Route,
  travel: Travel,
  matrix: TravelMatrix,
): VroomAnswer['routes'][number] | undefined {
  const schedule = route.tasks.length > 0 ? scheduleOf(route, route.tasks, travel) : undefined;
  if (!schedule) return undefined;
  const distance = (a: DayTask['place'], b: DayTask['place']) =>
    matrix.distances[(a as IndexedPlace).index]?.[(b as IndexedPlace).index] ?? 0;
  let from = route.bounds.startPlace;
  let duration = 0;
  let metres = 0;
  const steps = route.tasks.map((task, index) => {
    duration += travel(from, task.place);
    metres += distance(from, task.place);
    from = task.place;
    const times = schedule.tasks[index] as { arrival: number; start: number };
    return {
      type: 'job',
      id: task.job.id,
      arrival: times.arrival,
      waiting_time: times.start - times.arrival,
      service: task.durationSeconds,
    };
  });
  duration += travel(from, route.bounds.endPlace);
  metres += distance(from, route.bounds.endPlace);
  return { vehicle: route.vehicle.id, duration, distance: metres, steps };
}
