/**
 * Amazon Location route matrices behind the travel port, over a fake transport (no network):
 * the request each block sends, the answer as whole seconds and metres, unroutable pairs as
 * `unreachable`, blocks stitched into one matrix, and a malformed answer refused whole.
 */
import type { CalculateRouteMatrixRequest } from '@aws-sdk/client-geo-routes';
import { describe, expect, it } from 'vitest';
import { unreachable } from '../domain/scheduling/travel.ts';
import {
  amazonLocationTravel,
  blockSize,
  boundingBox,
  type MatrixTransport,
} from './location-route-matrix.ts';

const berlin = [
  { latitude: 52.52, longitude: 13.405 },
  { latitude: 52.5, longitude: 13.3 },
  { latitude: 52.55, longitude: 13.45 },
];

/** Answers every pair with (origin index × 100 + destination index) seconds, ×10 metres. */
function fakeTransport(requests: CalculateRouteMatrixRequest[], broken?: (o: number, d: number) => boolean) {
  const transport: MatrixTransport = async (request) => {
    requests.push(request);
    const origins = request.Origins ?? [];
    const destinations = request.Destinations ?? [];
    return {
      ErrorCount: 0,
      PricingBucket: 'Core',
      RoutingBoundary: request.RoutingBoundary,
      RouteMatrix: origins.map((_, o) =>
        destinations.map((_, d) =>
          broken?.(o, d)
            ? { Distance: 0, Duration: 0, Error: 'NoRoute' }
            : { Distance: (o * 100 + d) * 10, Duration: o * 100 + d + 0.4 },
        ),
      ),
    };
  };
  return transport;
}

describe('Adapter: Amazon Location route matrix', () => {
  describe('Method: matrix', () => {
    it('asks one car matrix within the places’ bounding box and answers whole seconds and metres', async () => {
      // Prepare
      const requests: CalculateRouteMatrixRequest[] = [];
      const travel = amazonLocationTravel(fakeTransport(requests));

      // Act
      const matrix = await travel.matrix(berlin);

      // Assess
      expect(travel.model).toBe('amazon-location');
      expect(requests).toHaveLength(1);
      expect(requests[0]).toMatchObject({
        TravelMode: 'Car',
        Origins: berlin.map((p) => ({ Position: [p.longitude, p.latitude] })),
        RoutingBoundary: { Geometry: { BoundingBox: boundingBox(berlin) } },
      });
      expect(matrix.durations).toEqual([
        [0, 1, 2],
        [100, 0, 102],
        [200, 201, 0],
      ]);
      expect(matrix.distances[1]).toEqual([1000, 0, 1020]);
    });

    it('answers a pair the service cannot route as unreachable, never as a short drive', async () => {
      // Prepare
      const travel = amazonLocationTravel(fakeTransport([], (o, d) => o === 0 && d === 2));

      // Act
      const matrix = await travel.matrix(berlin);

      // Assess
      expect(matrix.durations[0]?.[2]).toBe(unreachable);
      expect(matrix.durations[2]?.[0]).toBe(200);
    });

    it(`asks square blocks of at most ${blockSize} places and stitches them into one matrix`, async () => {
      // Prepare
      const requests: CalculateRouteMatrixRequest[] = [];
      const places = Array.from({ length: blockSize + 5 }, (_, i) => ({
        latitude: 52 + i / 10_000,
        longitude: 13,
      }));

      // Act
      const matrix = await amazonLocationTravel(fakeTransport(requests)).matrix(places);

      // Assess
      expect(requests.map((r) => [r.Origins?.length, r.Destinations?.length])).toEqual([
        [blockSize, blockSize],
        [blockSize, 5],
        [5, blockSize],
        [5, 5],
      ]);
      // Place blockSize + 1 is the second origin of the last blocks, place 3 the fourth destination.
      expect(matrix.durations[blockSize + 1]?.[3]).toBe(103);
      expect(matrix.durations[blockSize + 1]?.[blockSize + 3]).toBe(103);
    });

    it('fails the whole matrix when an answer does not cover its block', async () => {
      // Prepare
      const travel = amazonLocationTravel(async () => ({
        ErrorCount: 0,
        PricingBucket: 'Core',
        RoutingBoundary: {},
        RouteMatrix: [[]],
      }));

      // Act / Assess
      await expect(travel.matrix(berlin)).rejects.toThrow(/rows for 3 origins/);
    });

    it('needs no request for a single place', async () => {
      const requests: CalculateRouteMatrixRequest[] = [];
      expect(await amazonLocationTravel(fakeTransport(requests)).matrix(berlin.slice(0, 1))).toEqual({
        durations: [[0]],
        distances: [[0]],
      });
      expect(requests).toEqual([]);
    });
  });
});
