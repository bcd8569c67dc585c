import { describe, expect, it } from 'vitest';
import { buildProblem, type Problem } from './problem.ts';
import { parseVroomInput } from './vroom-input.ts';

/**
 * Four jobs (ids 1-4 at location indices 1-4) and two depots (indices 0 and 5), seen by two
 * profiles whose matrices place them differently on a line (travel = distance along it):
 *
 *   index:        0    1    2    3    4    5
 *   car  at:      0   10   20   30   40   50
 *   bike at:    100   10   40   20   30   50
 *
 * Vehicles: 1 a car from index 0 with skill 1; 2 a bike from index 5 with skill 2; 3 a car from
 * index 5 with no skill. Job 2 needs skill 1 (vehicle 1 only), job 3 skill 2 (vehicle 2 only).
 */
function twoProfiles(): Problem {
  const line = (at: number[]) => at.map((a) => at.map((b) => Math.abs(a - b)));
  return buildProblem(
    parseVroomInput({
      jobs: [
        { id: 1, location_index: 1 },
        { id: 2, location_index: 2, skills: [1] },
        { id: 3, location_index: 3, skills: [2] },
        { id: 4, location_index: 4 },
      ],
      vehicles: [
        { id: 1, profile: 'car', start_index: 0, end_index: 0, skills: [1] },
        { id: 2, profile: 'bike', start_index: 5, end_index: 5, skills: [2] },
        { id: 3, profile: 'car', start_index: 5, end_index: 5 },
      ],
      matrices: {
        car: { durations: line([0, 10, 20, 30, 40, 50]) },
        bike: { durations: line([100, 10, 40, 20, 30, 50]) },
      },
    }),
  );
}

/** Ids of job `id`'s neighbours in the lists of `group`, nearest first. */
function neighboursOf(problem: Problem, group: number, id: number): number[] {
  const n = problem.jobCount;
  const count = problem.neighbourCount;
  const from = (group * n + (id - 1)) * count;
  return Array.from(problem.neighbours.subarray(from, from + count), (j) => j + 1);
}

describe('Neighbourhoods: what "near" means to the search', () => {
  it('gives each vehicle the neighbour lists of its own cost matrix, nearest first, ties by job order', () => {
    // Prepare
    const problem = twoProfiles();
    const car = problem.neighbourGroup[0]!;
    const bike = problem.neighbourGroup[1]!;

    // Assess: the two cars share their lists, the bike has its own.
    expect(problem.neighbourCount).toBe(3);
    expect(problem.neighbourGroup[2]).toBe(car);
    expect(bike).not.toBe(car);
    expect([1, 2, 3, 4].map((id) => neighboursOf(problem, car, id))).toEqual([
      [2, 3, 4],
      [1, 3, 4],
      [2, 4, 1],
      [3, 2, 1],
    ]);
    expect([1, 2, 3, 4].map((id) => neighboursOf(problem, bike, id))).toEqual([
      [3, 4, 2],
      [4, 3, 1],
      [1, 4, 2],
      [2, 3, 1],
    ]);
  });

  it('gives an unrouted job the lists of the first vehicle that can serve it', () => {
    const problem = twoProfiles();
    const car = problem.neighbourGroup[0]!;
    const bike = problem.neighbourGroup[1]!;
    expect(Array.from(problem.jobNeighbourGroup)).toEqual([car, car, bike, car]);
  });

  it("measures a job's depot distance as the cheapest round trip of a vehicle that has its skills", () => {
    const problem = twoProfiles();
    expect(Array.from(problem.depotDistance)).toEqual([
      // Job 1: car from 0 (2 × 10); the bike and the other car would go 2 × 40.
      20,
      // Job 2: only vehicle 1 has skill 1 (2 × 20), though the bike (2 × 10) is nearer.
      40,
      // Job 3: only the bike has skill 2 (2 × 30), though the car from 5 (2 × 20) is nearer.
      60,
      // Job 4: the car from 5 (2 × 10), nearer than the bike (2 × 20) and the car from 0 (2 × 40).
      20,
    ]);
  });

  it('counts a job whose window no route from here can reach in time as far, though it is near on the map', () => {
    // Prepare: job 1 at 0; job 2 next door (10) but due by 50, long before job 1 can leave (its
    // window opens at 1000); job 3 four times as far (40) with a window that follows job 1's.
    const problem = buildProblem(
      parseVroomInput({
        jobs: [
          { id: 1, location_index: 1, service: 10, time_windows: [[1000, 1100]] },
          { id: 2, location_index: 2, time_windows: [[0, 50]] },
          { id: 3, location_index: 3, time_windows: [[1000, 2000]] },
        ],
        vehicles: [{ id: 1, start_index: 0, end_index: 0 }],
        matrices: {
          car: {
            durations: [
              [0, 5, 5, 45],
              [5, 0, 10, 40],
              [5, 10, 0, 50],
              [45, 40, 50, 0],
            ],
          },
        },
      }),
    );

    // Assess: by travel alone job 2 is job 1's nearest; in time, job 3 is.
    const spatial = Array.from(problem.spatialNeighbours.subarray(0, 2), (j) => j + 1);
    expect(spatial).toEqual([2, 3]);
    expect(neighboursOf(problem, 0, 1)).toEqual([3, 2]);
  });
});
