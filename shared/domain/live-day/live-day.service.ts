/**
 * The live day at telemetry intake (API-DECISIONS.md, "The live day"): a device that speaks for a
 * technician (its `user_id`, or its `vehicle_id` on a tour on the road) has each new position
 * followed against that tour (live-follow.ts). What the device's state keeps (the visits) rides
 * on the state write intake makes anyway; the tour is written only when a stop changes: an
 * arrival, a departure, the next stop EN_ROUTE, or ETAs that moved by more than 5 minutes or
 * became late or on time again. That write is a tour.updated of the service (actor SYSTEM), so
 * webhooks, the event stream (TOUR_UPDATED:V1) and offline sync carry it.
 */
import { keys } from '../../data/keys.ts';
import type { StoredRecord, TableWrite } from '../../data/table.ts';
import { previousAttributes, systemEvent } from '../../events/domain-event.ts';
import { logger } from '../../observability/logger.ts';
import type { Tour } from '../tours/tour.schema.ts';
import { tourStore } from '../tours/tour.store.ts';
import { tourClaims } from '../tours/tour-claims.ts';
import { updateVersioned } from '../versioned-write.ts';
import { changedStops, followPosition, type LiveState, type StopChange } from './live-follow.ts';
import { type LiveWatch, rememberWatch, watchOf, watchTour } from './live-watch.ts';

export interface FollowedReport {
  /** The device state's `live` after the report (undefined: it follows no tour). */
  live: LiveState | undefined;
  /** Writes the tour's stops, once the device's state is written (none when nothing changed). */
  apply(): Promise<void>;
}

const nothing = async () => {};

/** Whether the device speaks for anyone: devices that do not are never followed (no read). */
export const speaksForSomeone = (device: StoredRecord) =>
  typeof device.user_id === 'string' || typeof device.vehicle_id === 'string';

export async function followReport(
  workspaceId: string,
  device: StoredRecord,
  live: LiveState | undefined,
  position: { latitude: number; longitude: number; at: number },
  now = Date.now(),
): Promise<FollowedReport> {
  if (!speaksForSomeone(device)) return { live, apply: nothing };
  const watch = await watchOf(workspaceId, device, now);
  if (!watch) return { live: undefined, apply: nothing };
  const followed = followPosition(watch, live, position, now, watch.settings);
  if (followed.changes.size === 0) return { live: followed.live, apply: nothing };
  return {
    live: followed.live,
    // Best effort: the report is stored either way, and the next one writes what this one could not.
    apply: () =>
      writeStops(workspaceId, String(device.id), watch, followed.changes).catch((error: unknown) =>
        logger.warn('live day: the tour’s stops were not written; the next report tries again', {
          tourId: watch.tour.id,
          error,
        }),
      ),
  };
}

async function writeStops(
  workspaceId: string,
  deviceId: string,
  watch: LiveWatch,
  changes: ReadonlyMap<string, StopChange>,
): Promise<void> {
  const tourId = watch.tour.id;
  let written: Tour | undefined;
  // Whether this write made the device the tour's speaker (a tour left as it was changes nothing).
  let spoke = false;
  await updateVersioned<Tour>({
    key: `tour:${workspaceId}:${tourId}`,
    load: () => tourStore.of(workspaceId).getConsistent(tourId),
    expectedVersion: undefined,
    apply: (current) => ({ ...current, stops: changedStops(current.stops, changes) }),
    save: async (next, current) => {
      // A tour no longer on the road, or already showing all of it, is left as it is.
      if (current.status !== 'IN_PROGRESS' || JSON.stringify(next.stops) === JSON.stringify(current.stops)) {
        written = current;
        return;
      }
      const { writes } = await tourClaims(workspaceId, current, next);
      // Which device moved it: a case's ETA says how old its position is (case-eta.service.ts).
      // Written when another device (or none this container knows of) spoke for the tour last.
      const speaker: TableWrite[] =
        watch.speaker === deviceId
          ? []
          : [
              {
                kind: 'put',
                key: keys.liveSpeaker(workspaceId, tourId),
                entity: 'live_speaker',
                record: { device_id: deviceId },
              },
            ];
      await tourStore
        .of(workspaceId)
        .replace(
          next,
          current,
          systemEvent(
            workspaceId,
            'tour.updated',
            { type: 'tour', id: tourId },
            next,
            previousAttributes(current, next),
          ),
          [...writes, ...speaker],
        );
      written = next;
      spoke = true;
    },
  });
  if (written && !sameOrder(written, watch)) {
    // Someone re-planned the tour (a REPAIR run, a dispatcher): follow its new order at once.
    const speaker = spoke ? deviceId : watch.speaker;
    rememberWatch(workspaceId, deviceId, {
      ...(await watchTour(workspaceId, written)),
      ...(speaker ? { speaker } : {}),
    });
  } else if (written) {
    const arrived = new Map(written.stops.map((stop) => [stop.case_id, stop.arrived_at]));
    rememberWatch(workspaceId, deviceId, {
      ...watch,
      ...(spoke ? { speaker: deviceId } : {}),
      tour: written,
      stops: watch.stops.map((stop) => {
        const at = arrived.get(stop.caseId);
        return at ? { ...stop, arrivedAt: Date.parse(at) } : stop;
      }),
    });
  }
}

/** Whether the watch follows the tour's stops in the order it now has. */
function sameOrder(tour: Tour, watch: LiveWatch): boolean {
  const followed = new Set(watch.stops.map((stop) => stop.caseId));
  const order = tour.stops.map((stop) => stop.case_id).filter((id) => followed.has(id));
  return order.length === watch.stops.length && order.every((id, index) => watch.stops[index]?.caseId === id);
}
