/**
 * A case's live ETA for a customer-facing page (GET /api/v2/cases/{case_id}/eta; API-DECISIONS.md,
 * "The live day"): the eta of its stop on the tour on the road that holds it (its guard names the
 * tour), the technician's first name, and how old the position behind it is (the device that last
 * moved the tour, and its state). A case the caller may not read, or that no tour on the road
 * holds (planned, done, or not reached by any position yet), has no ETA: 404. Cost: 4 to 5
 * GetItem.
 */
import type { Actor } from '../../auth/actor.ts';
import { getPrincipal } from '../../data/directory.store.ts';
import { keys } from '../../data/keys.ts';
import { getRecord } from '../../data/table.ts';
import { formatIsoDuration } from '../../schema/duration.ts';
import { getCase } from '../cases/case.service.ts';
import { CommonDomainError } from '../common-error.ts';
import { deviceStateStore } from '../devices/device-state.store.ts';
import { tourStore } from '../tours/tour.store.ts';
import { openToursOfCases } from '../tours/tour-claims.ts';
import type { CaseEta } from './case-eta.schema.ts';

const noEta = (detail: string) => new CommonDomainError('not-found', { detail });

export async function caseEta(ctx: Actor, caseId: string, now = Date.now()): Promise<CaseEta> {
  const record = await getCase(ctx, caseId);
  const tourId = (await openToursOfCases(ctx, [record.id])).get(record.id);
  const tour = tourId ? await tourStore.of(ctx).get(tourId) : undefined;
  const stop = tour?.status === 'IN_PROGRESS' ? tour.stops.find((s) => s.case_id === record.id) : undefined;
  const eta = stop?.arrived_at ?? stop?.eta;
  if (!tour || !stop || !eta) throw noEta('The case is not a stop of a tour on the road with an ETA yet.');
  const [driver, speaker] = await Promise.all([
    tour.driver_id ? getPrincipal(ctx.workspaceId, tour.driver_id) : undefined,
    getRecord(keys.liveSpeaker(ctx.workspaceId, tour.id)),
  ]);
  const state = speaker?.device_id
    ? await deviceStateStore.of(ctx).get(String(speaker.device_id))
    : undefined;
  const recorded = state?.location_recorded_at ? Date.parse(state.location_recorded_at) : undefined;
  return {
    eta,
    status: stop.status,
    technician: driver?.firstname ? { first_name: driver.firstname } : {},
    ...(recorded !== undefined ? { position_age: formatIsoDuration((now - recorded) / 1000) } : {}),
    ...(stop.late ? { late: true } : {}),
  };
}
