/**
 * The travel port (shared/domain/scheduling/travel.ts) over Amazon Location's route matrices
 * (Routes v2, CalculateRouteMatrix: no resource to create, billed per origin–destination pair).
 * Used by the solver on AWS when a workspace routes with AMAZON_LOCATION (travel-selection.ts).
 *
 * - Cars, no departure time (typical traffic; a plan is made ahead of its day).
 * - The routing boundary is the places' bounding box with a margin, which lets a request hold up
 *   to 500 origins × 500 destinations and 160,000 pairs: the matrix is asked in square blocks of
 *   at most `blockSize` places, one request per block, in sequence (the account's default quota
 *   is 5 matrix requests a second; the SDK retries a throttled one).
 * - A pair the service cannot route (NoRoute, NoMatch, OutOfBounds, …) is `unreachable`, as the
 *   port's contract says; a failed request fails the whole matrix (never a partial one).
 *
 * The transport is a parameter, so tests answer with a fake (no network).
 */
import {
  CalculateRouteMatrixCommand,
  type CalculateRouteMatrixRequest,
  type CalculateRouteMatrixResponse,
  type GeoRoutesClient,
} from '@aws-sdk/client-geo-routes';
import { type Place, type TravelMatrix, type TravelPort, unreachable } from '../domain/scheduling/travel.ts';
import { geoRoutesClient } from './clients.ts';

export type MatrixTransport = (request: CalculateRouteMatrixRequest) => Promise<CalculateRouteMatrixResponse>;

/** Places per side of one request: 400 × 400 = 160,000 pairs, the service's limit. */
export const blockSize = 400;

/** [minLon, minLat, maxLon, maxLat] around the places, widened so roads just outside count. */
export function boundingBox(places: readonly Place[]): number[] {
  const lons = places.map((p) => p.longitude);
  const lats = places.map((p) => p.latitude);
  const margin = (span: number) => Math.max(0.05, span * 0.1);
  const [minLon, maxLon, minLat, maxLat] = [
    Math.min(...lons),
    Math.max(...lons),
    Math.min(...lats),
    Math.max(...lats),
  ];
  const dLon = margin(maxLon - minLon);
  const dLat = margin(maxLat - minLat);
  return [
    Math.max(-180, minLon - dLon),
    Math.max(-90, minLat - dLat),
    Math.min(180, maxLon + dLon),
    Math.min(90, maxLat + dLat),
  ];
}

function sdkTransport(): MatrixTransport {
  let client: GeoRoutesClient | undefined;
  return (request) => {
    client ??= geoRoutesClient();
    return client.send(new CalculateRouteMatrixCommand(request));
  };
}

export function amazonLocationTravel(transport: MatrixTransport = sdkTransport()): TravelPort {
  return {
    model: 'amazon-location',
    async matrix(places) {
      const n = places.length;
      const matrix: TravelMatrix = {
        durations: Array.from({ length: n }, () => new Array<number>(n).fill(0)),
        distances: Array.from({ length: n }, () => new Array<number>(n).fill(0)),
      };
      if (n < 2) return matrix;
      const box = boundingBox(places);
      const position = (place: Place) => ({ Position: [place.longitude, place.latitude] });
      for (let from = 0; from < n; from += blockSize) {
        for (let to = 0; to < n; to += blockSize) {
          const origins = places.slice(from, from + blockSize);
          const destinations = places.slice(to, to + blockSize);
          const answer = await transport({
            Origins: origins.map(position),
            Destinations: destinations.map(position),
            TravelMode: 'Car',
            RoutingBoundary: { Geometry: { BoundingBox: box } },
          });
          const rows = answer.RouteMatrix ?? [];
          if (rows.length !== origins.length) {
            throw new Error(`Amazon Location answered ${rows.length} rows for ${origins.length} origins`);
          }
          rows.forEach((row, i) => {
            if (row.length !== destinations.length) {
              throw new Error(
                `Amazon Location answered ${row.length} columns for ${destinations.length} destinations`,
              );
            }
            row.forEach((entry, j) => {
              const [a, b] = [from + i, to + j];
              if (a === b) return;
              const routed = !entry.Error && entry.Duration !== undefined;
              (matrix.durations[a] as number[])[b] = routed
                ? Math.round(Number(entry.Duration))
                : unreachable;
              (matrix.distances[a] as number[])[b] = routed ? Math.round(Number(entry.Distance ?? 0)) : 0;
            });
          });
        }
      }
      return matrix;
    },
  };
}
