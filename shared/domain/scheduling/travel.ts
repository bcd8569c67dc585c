/**
 * The travel port: how long and how far it is between places, as a matrix, for the optimizer
 * and the slot search. Two adapters implement it: the great-circle model below (the local stack,
 * and any workspace whose geoservices settings do not route with AWS), and Amazon Location route
 * matrices on AWS (shared/aws/location-route-matrix.ts, chosen by the wiring).
 *
 * The contract:
 * - `matrix(places)` answers square matrices over `places` in the order given: `durations[i][j]`
 *   whole seconds and `distances[i][j]` whole metres from place i to place j; the diagonal is 0.
 * - It may answer a place it cannot reach with `unreachable` (seconds) in its row and column;
 *   the optimizer then never routes through it in time.
 * - It fails with an Error only when the provider cannot answer at all (then the run fails with
 *   that reason); it never answers a partial matrix.
 */

export interface Place {
  latitude: number;
  longitude: number;
}

export interface TravelMatrix {
  /** Whole seconds. */
  durations: number[][];
  /** Whole metres. */
  distances: number[][];
}

export interface TravelPort {
  /** A name for logs and the run's result (`great-circle`, `amazon-location`). */
  readonly model: string;
  matrix(places: readonly Place[]): Promise<TravelMatrix>;
}

/** Seconds standing for "cannot get there": beyond any horizon a run plans (a year). */
export const unreachable = 365 * 24 * 3600;

const earthRadiusMetres = 6_371_008.8;
/** Roads are not straight: the great-circle distance times this is the distance driven. */
export const detourFactor = 1.3;
/** Average speed of a service van in and around a city. */
export const averageSpeedKmh = 40;

const radians = (degrees: number) => (degrees * Math.PI) / 180;

/** The great-circle distance between two places, in metres (haversine). */
export function greatCircleMetres(a: Place, b: Place): number {
  const dLat = radians(b.latitude - a.latitude);
  const dLon = radians(b.longitude - a.longitude);
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(radians(a.latitude)) * Math.cos(radians(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * earthRadiusMetres * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * The model of API-DECISIONS.md for the local stack: great-circle distance × 1.3, driven at
 * 40 km/h. Deterministic and free: good enough to compare plans, not to promise arrival times.
 */
export const greatCircleTravel: TravelPort = {
  model: 'great-circle',
  async matrix(places) {
    const n = places.length;
    const durations: number[][] = [];
    const distances: number[][] = [];
    const metresPerSecond = (averageSpeedKmh * 1000) / 3600;
    for (let i = 0; i < n; i++) {
      const durationRow = new Array<number>(n).fill(0);
      const distanceRow = new Array<number>(n).fill(0);
      for (let j = 0; j < n; j++) {
        if (i === j) continue;
        const metres = greatCircleMetres(places[i] as Place, places[j] as Place) * detourFactor;
        distanceRow[j] = Math.round(metres);
        durationRow[j] = Math.round(metres / metresPerSecond);
      }
      durations.push(durationRow);
      distances.push(distanceRow);
    }
    return { durations, distances };
  },
};
