/**
 * Travel between coordinates when the input brings no matrix for a profile: the great-circle
 * distance lengthened by a detour factor, driven at a constant speed (API-DECISIONS.md, "Travel":
 * great-circle distance × 1.3 at 40 km/h). Durations and distances are rounded to whole seconds
 * and metres, as VROOM's matrices are integers.
 */
import type { Coordinates } from './vroom-input.ts';

export const earthRadiusMetres = 6_371_008.8;
export const detourFactor = 1.3;
export const speedMetresPerSecond = 40_000 / 3600;

export function greatCircleMetres(a: Coordinates, b: Coordinates): number {
  const toRadians = Math.PI / 180;
  const lat1 = a[1] * toRadians;
  const lat2 = b[1] * toRadians;
  const dLat = lat2 - lat1;
  const dLon = (b[0] - a[0]) * toRadians;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(lat1) * Math.cos(lat2) * Math.sin(dLon / 2) ** 2;
  return 2 * earthRadiusMetres * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Road distance estimate in metres, rounded. */
export function roadMetres(a: Coordinates, b: Coordinates): number {
  return Math.round(greatCircleMetres(a, b) * detourFactor);
}

/** Driving time estimate in seconds, rounded. */
export function roadSeconds(a: Coordinates, b: Coordinates): number {
  return Math.round((greatCircleMetres(a, b) * detourFactor) / speedMetresPerSecond);
}
