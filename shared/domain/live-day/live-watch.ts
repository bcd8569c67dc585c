/**
 * What a device's positions are followed against (API-DECISIONS.md, "The live day"): the tour on
 * the road (IN_PROGRESS) of whoever the device speaks for — its user (`user_id`), else the driver
 * of the tour on the road with its vehicle (`vehicle_id`) — with its stops' places, windows and
 * durations. Kept per container for a minute, so a report that changes nothing costs no read; a
 * lapsed watch of a tour still on the road at the version watched is renewed with one GetItem of
 * the tour, and taken again whole (the facet Query, the cases, the settings) every five minutes or
 * when the tour or whom the device speaks for changed. So a case's new place or window reaches the
 * ETAs within five minutes, a re-planned tour within a minute, and a tour's own writes through
 * this module at once. The workspace's live-day settings (radius and dwell) are read once a minute
 * per workspace and container and ride on the watch.
 */
import type { StoredRecord } from '../../data/table.ts';
import { parseIsoDuration } from '../../schema/duration.ts';
import { caseStore } from '../cases/case.store.ts';
import { durationSecondsOf } from '../cases/case-planning.ts';
import { getSettings, onSettingsChanged } from '../settings/settings.service.ts';
import type { Tour } from '../tours/tour.schema.ts';
import { tourStore } from '../tours/tour.store.ts';
import { type DetectorSettings, defaultDetectorSettings } from './arrival-detector.ts';
import type { EtaStop } from './eta.ts';

export interface LiveWatch {
  tour: Tour;
  /** The stops with a place, in the tour's order (stops whose case has no location are not followed). */
  stops: EtaStop[];
  /** How arrivals and departures are told (the workspace's live-day settings). */
  settings: DetectorSettings;
  /** The device this container last wrote the tour's speaker item for (it is not written again). */
  speaker?: string;
}

const keptMs = 60_000;
/** A watch is taken again whole (the facet, the cases, the settings) at least this often. */
const wholeMs = 5 * 60_000;
const maxWatches = 20_000;
interface Kept {
  watch: LiveWatch | undefined;
  until: number;
  /** Until then a lapsed watch of an unchanged tour is renewed with one GetItem. */
  wholeUntil: number;
  /** Whom the device spoke for when the watch was taken (its user and vehicle). */
  speaksFor: string;
}
const watches = new Map<string, Kept>();
const speaksForOf = (device: StoredRecord) =>
  `${String(device.user_id ?? '')}|${String(device.vehicle_id ?? '')}`;
const keyOf = (workspaceId: string, deviceId: string) => `${workspaceId}/${deviceId}`;

/** The tour on the road of a driver, or with a vehicle (the newest if several). */
async function tourOnTheRoad(
  workspaceId: string,
  facet: { name: string; value: string },
): Promise<Tour | undefined> {
  const { items } = await tourStore.of(workspaceId).page({
    segments: ['IN_PROGRESS'],
    facet,
    order: [{ field: 'date', direction: 'desc' }],
    page: 0,
    size: 1,
    skipTotal: true,
  });
  return items[0];
}

const settingsKept = new Map<string, { settings: Promise<DetectorSettings>; until: number }>();
onSettingsChanged('live_day', (workspaceId) => settingsKept.delete(workspaceId));

/** The workspace's radius and dwell (read once a minute per workspace and container). */
export function detectorSettings(workspaceId: string, now = Date.now()): Promise<DetectorSettings> {
  const kept = settingsKept.get(workspaceId);
  if (kept && kept.until > now) return kept.settings;
  const settings = readDetectorSettings(workspaceId);
  settings.catch(() => settingsKept.delete(workspaceId));
  if (settingsKept.size >= maxWatches) settingsKept.clear();
  settingsKept.set(workspaceId, { settings, until: now + keptMs });
  return settings;
}

/** The workspace's radius and dwell; the defaults when it never changed them. */
async function readDetectorSettings(workspaceId: string): Promise<DetectorSettings> {
  const fields = await getSettings({ workspaceId }, 'live_day');
  const dwell = parseIsoDuration(String(fields.dwell));
  return {
    radiusM: Number(fields.arrival_radius_m) || defaultDetectorSettings.radiusM,
    dwellMs: 'seconds' in dwell ? dwell.seconds * 1000 : defaultDetectorSettings.dwellMs,
  };
}

export async function watchTour(workspaceId: string, tour: Tour): Promise<LiveWatch> {
  const [cases, settings] = await Promise.all([
    caseStore.of(workspaceId).getMany(tour.stops.map((stop) => stop.case_id)),
    detectorSettings(workspaceId),
  ]);
  const stops: EtaStop[] = [];
  tour.stops.forEach((stop, index) => {
    const record = cases[index];
    if (!record?.location) return;
    const windowEnd = record.time_windows?.at(-1)?.end ?? record.scheduled_end;
    const windowStart = record.time_windows?.[0]?.start;
    stops.push({
      caseId: stop.case_id,
      location: { latitude: record.location.latitude, longitude: record.location.longitude },
      durationS: durationSecondsOf(record),
      ...(windowStart ? { windowStart: Date.parse(windowStart) } : {}),
      ...(windowEnd ? { windowEnd: Date.parse(windowEnd) } : {}),
      ...(stop.arrived_at ? { arrivedAt: Date.parse(stop.arrived_at) } : {}),
    });
  });
  return { tour, stops, settings };
}

/** The watch of a device (a minute old at most), or none when it speaks for no tour on the road. */
export async function watchOf(
  workspaceId: string,
  device: StoredRecord,
  now = Date.now(),
): Promise<LiveWatch | undefined> {
  const key = keyOf(workspaceId, String(device.id));
  const kept = watches.get(key);
  if (kept && kept.until > now) return kept.watch;
  const speaksFor = speaksForOf(device);
  if (kept?.watch && kept.wholeUntil > now && kept.speaksFor === speaksFor) {
    // One GetItem: a tour still on the road at the version watched holds for another minute.
    const tour = await tourStore.of(workspaceId).get(kept.watch.tour.id);
    if (tour?.status === 'IN_PROGRESS' && tour.lock_version === kept.watch.tour.lock_version) {
      const renewed = { ...kept.watch, settings: await detectorSettings(workspaceId, now) };
      remember(key, renewed, now, { wholeUntil: kept.wholeUntil, speaksFor });
      return renewed;
    }
  }
  const userId = typeof device.user_id === 'string' ? device.user_id : undefined;
  const vehicleId = typeof device.vehicle_id === 'string' ? device.vehicle_id : undefined;
  const tour = userId
    ? await tourOnTheRoad(workspaceId, { name: 'driver_id', value: userId })
    : vehicleId
      ? await tourOnTheRoad(workspaceId, { name: 'vehicle_id', value: vehicleId })
      : undefined;
  const watch = tour ? await watchTour(workspaceId, tour) : undefined;
  // Still the tour it spoke for: the speaker item need not be written again.
  const speaker = kept?.watch?.tour.id === tour?.id ? kept?.watch?.speaker : undefined;
  remember(key, watch && speaker ? { ...watch, speaker } : watch, now, {
    wholeUntil: now + wholeMs,
    speaksFor,
  });
  return watch && speaker ? { ...watch, speaker } : watch;
}

/** After this module wrote the tour: the device follows what it wrote. */
export function rememberWatch(
  workspaceId: string,
  deviceId: string,
  watch: LiveWatch,
  now = Date.now(),
): void {
  const key = keyOf(workspaceId, deviceId);
  const kept = watches.get(key);
  remember(key, watch, now, {
    wholeUntil: kept?.wholeUntil ?? now + wholeMs,
    speaksFor: kept?.speaksFor ?? '',
  });
}

function remember(
  key: string,
  watch: LiveWatch | undefined,
  now: number,
  whole: Pick<Kept, 'wholeUntil' | 'speaksFor'>,
): void {
  watches.delete(key);
  if (watches.size >= maxWatches) watches.delete(watches.keys().next().value ?? '');
  watches.set(key, { watch, until: now + keptMs, ...whole });
}
