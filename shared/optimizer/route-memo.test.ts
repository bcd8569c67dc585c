import { describe, expect, it } from 'vitest';
import { buildProblem } from './problem.ts';
import { RouteMemo } from './route-memo.ts';
import { Solution } from './solution.ts';
import { parseVroomInput } from './vroom-input.ts';

function twoVehicles() {
  const jobs = [1, 2, 3, 4].map((id) => ({ id, location_index: id }));
  const matrix = Array.from({ length: 5 }, (_, a) => Array.from({ length: 5 }, (_, b) => Math.abs(a - b)));
  const input = {
    vehicles: [
      { id: 1, start_index: 0 },
      { id: 2, start_index: 0 },
    ],
    jobs,
    matrices: { car: { durations: matrix } },
  };
  return new Solution(buildProblem(parseVroomInput(input)));
}

function fill(solution: Solution, vehicle: number, jobs: number[]) {
  const route = solution.routes[vehicle]!;
  route.setNodes(Int32Array.from(jobs), jobs.length);
  route.refresh();
  return route;
}

describe('RouteMemo', () => {
  it('recognises a route by its content, also in another route object built later', () => {
    // Prepare
    const memo = new RouteMemo();
    memo.add(fill(twoVehicles(), 0, [0, 1, 2]));

    // Act
    const rebuilt = fill(twoVehicles(), 0, [0, 1, 2]);

    // Assert
    expect(memo.has(rebuilt)).toBe(true);
  });

  it('does not take another order, another length or another vehicle for the route it holds', () => {
    // Prepare
    const memo = new RouteMemo();
    memo.add(fill(twoVehicles(), 0, [0, 1, 2]));

    // Act, Assert
    expect(memo.has(fill(twoVehicles(), 0, [0, 2, 1]))).toBe(false);
    expect(memo.has(fill(twoVehicles(), 0, [0, 1, 2, 3]))).toBe(false);
    expect(memo.has(fill(twoVehicles(), 0, [0, 1]))).toBe(false);
    expect(memo.has(fill(twoVehicles(), 1, [0, 1, 2]))).toBe(false);
  });
});
