import { describe, expect, it } from 'vitest';
import { ContentHashes, JobMemo, RouteMemo } from './descent-memo.ts';
import { buildProblem } from './problem.ts';
import { Solution } from './solution.ts';
import { parseVroomInput } from './vroom-input.ts';

function twoVehicles(count = 2) {
  const jobs = [1, 2, 3, 4].map((id) => ({ id, location_index: id }));
  const matrix = Array.from({ length: 5 }, (_, a) => Array.from({ length: 5 }, (_, b) => Math.abs(a - b)));
  const input = {
    vehicles: Array.from({ length: count }, (_, v) => ({ id: v + 1, start_index: 0 })),
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
    const memo = new RouteMemo(new ContentHashes(2));
    memo.add(fill(twoVehicles(), 0, [0, 1, 2]));

    // Act
    const rebuilt = fill(twoVehicles(), 0, [0, 1, 2]);

    // Assert
    expect(memo.has(rebuilt)).toBe(true);
  });

  it('does not take another order, another length or another vehicle for the route it holds', () => {
    // Prepare
    const memo = new RouteMemo(new ContentHashes(2));
    memo.add(fill(twoVehicles(), 0, [0, 1, 2]));

    // Act, Assert
    expect(memo.has(fill(twoVehicles(), 0, [0, 2, 1]))).toBe(false);
    expect(memo.has(fill(twoVehicles(), 0, [0, 1, 2, 3]))).toBe(false);
    expect(memo.has(fill(twoVehicles(), 0, [0, 1]))).toBe(false);
    expect(memo.has(fill(twoVehicles(), 1, [0, 1, 2]))).toBe(false);
  });
});

describe('JobMemo', () => {
  // Job 0 on vehicle 0; its one neighbour, job 1, on vehicle 1; job 2 on vehicle 2, no neighbour of job 0.
  const neighbours = Int32Array.from([1]);
  function dispatched() {
    const solution = twoVehicles(3);
    fill(solution, 0, [0]);
    fill(solution, 1, [1]);
    fill(solution, 2, [2]);
    return solution;
  }

  it("recognises a job whose route and whose neighbours' routes hold what they held, whatever else changed", () => {
    // Prepare
    const memo = new JobMemo(new ContentHashes(3));
    memo.add(dispatched(), 0, neighbours, 0, 1);
    const later = dispatched();

    // Act
    fill(later, 2, [2, 3]);

    // Assert
    expect(memo.has(later, 0, neighbours, 0, 1)).toBe(true);
  });

  it("forgets the job once its neighbour's route or its own route holds something else", () => {
    // Prepare
    const memo = new JobMemo(new ContentHashes(3));
    memo.add(dispatched(), 0, neighbours, 0, 1);
    const neighbourMoved = dispatched();
    const ownChanged = dispatched();

    // Act
    fill(neighbourMoved, 1, [1, 3]);
    fill(ownChanged, 0, [0, 3]);

    // Assert
    expect(memo.has(neighbourMoved, 0, neighbours, 0, 1)).toBe(false);
    expect(memo.has(ownChanged, 0, neighbours, 0, 1)).toBe(false);
  });
});
