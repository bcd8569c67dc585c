/**
 * The picture of a run's plan (GET …/optimization-runs/{run_id}/map.svg): the routes and the
 * cases left out where they were when the run read them (the plan's places), labelled with the
 * technicians' names and the cases' titles as they are now. Cost: the run, its plan (its header
 * and 1 BatchGetItem of its parts: run-plan.store.ts), 1 BatchGetItem per 100 cases for titles,
 * 1 GetItem per technician.
 */
import type { Actor } from '../../auth/actor.ts';
import { getPrincipal } from '../../data/directory.store.ts';
import { caseStore } from '../cases/case.store.ts';
import { type MapRoute, runMapSvg } from '../scheduling/run-map.ts';
import type { Place } from '../scheduling/travel.ts';
import type { Coordinates } from './optimization-run.record.ts';
import { settleIfStalled } from './optimization-run.service.ts';
import { runStore } from './optimization-run.store.ts';
import { OptimizationRunError } from './optimization-run-error.ts';
import { readPlan } from './run-plan.store.ts';

const place = ([latitude, longitude]: Coordinates): Place => ({ latitude, longitude });

export async function runMap(ctx: Actor, id: string): Promise<string> {
  const runId = id.toLowerCase();
  const stored = await runStore.of(ctx).get(runId);
  if (!stored) throw new OptimizationRunError('not-found');
  const run = await settleIfStalled(ctx, stored);
  const plan = run.status === 'SUCCEEDED' ? await readPlan(ctx, runId) : undefined;
  if (!plan) {
    // The map is a sub-resource that exists once the plan does.
    throw new OptimizationRunError('not-found', {
      detail: `The run is ${run.status}: only a SUCCEEDED run has a map.`,
      data: { status: run.status },
    });
  }
  const caseIds = [
    ...plan.routes.flatMap((route) => route.stops.map((stop) => stop.case_id)),
    ...plan.unassigned.map((entry) => entry.case_id),
  ];
  const users = [...new Set(plan.routes.map((route) => route.user_id))];
  const [cases, people] = await Promise.all([
    caseStore.of(ctx).getMany(caseIds),
    Promise.all(users.map((user) => getPrincipal(ctx.workspaceId, user))),
  ]);
  const titleOf = new Map(cases.flatMap((record) => (record ? [[record.id, record.title]] : [])));
  const nameOf = new Map(
    users.map((user, index) => {
      const person = people[index];
      const name = [person?.firstname, person?.lastname].filter(Boolean).join(' ');
      return [user, name || `Technician ${user.slice(0, 8)}`];
    }),
  );
  const routes: MapRoute[] = plan.routes.flatMap((route) => {
    const shift = plan.places.shifts[route.shift_id];
    if (!shift) return [];
    return [
      {
        label: nameOf.get(route.user_id) ?? route.user_id,
        start: place(shift.start),
        end: place(shift.end),
        stops: route.stops.flatMap((stop) => {
          const at = plan.places.cases[stop.case_id];
          return at
            ? [{ caseId: stop.case_id, place: place(at), title: titleOf.get(stop.case_id) ?? stop.case_id }]
            : [];
        }),
        distanceMetres: route.distance_m,
      },
    ];
  });
  const unassigned = plan.unassigned.map((entry) => {
    const at = plan.places.cases[entry.case_id];
    return { caseId: entry.case_id, ...(at ? { place: place(at) } : {}), reason: entry.reason };
  });
  return runMapSvg({ title: `Optimization run ${runId}`, routes, unassigned });
}
