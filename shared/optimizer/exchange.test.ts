import { describe, expect, it } from 'vitest';
import { createBoard, SolutionBoard } from './exchange.ts';
import { buildProblem, type Problem } from './problem.ts';
import { Solution } from './solution.ts';
import { parseVroomInput } from './vroom-input.ts';

/** Six jobs on a line (place i at i × 10), two vehicles from place 0; the second takes a break. */
function lineProblem(): Problem {
  const size = 7;
  const durations = Array.from({ length: size }, (_, i) =>
    Array.from({ length: size }, (_, j) => Math.abs(i - j) * 10),
  );
  return buildProblem(
    parseVroomInput({
      jobs: [1, 2, 3, 4, 5, 6].map((id) => ({ id, location_index: id })),
      vehicles: [
        { id: 1, start_index: 0, end_index: 0 },
        { id: 2, start_index: 0, end_index: 0, breaks: [{ id: 9, time_windows: [[0, 1000]], service: 5 }] },
      ],
      matrices: { car: { durations } },
    }),
  );
}

/** Jobs given per vehicle, in order. */
function plan(problem: Problem, routes: number[][]): Solution {
  const solution = new Solution(problem);
  routes.forEach((jobs, vehicle) => {
    for (const job of jobs) solution.insert(job, vehicle, solution.routes[vehicle]!.len - 2);
  });
  return solution;
}

const nodes = (solution: Solution) =>
  solution.routes.map((route) => Array.from(route.node.subarray(1, route.len - 1)));

function seats(problem: Problem) {
  const breaks = problem.breakOffset[problem.vehicleCount]!;
  const buffer = createBoard(2, problem.vehicleCount, problem.jobCount, breaks);
  const join = (slot: number) =>
    SolutionBoard.join({ buffer, searches: 2, slot }, problem.vehicleCount, problem.jobCount + breaks)!;
  return [join(0), join(1)] as const;
}

describe('Searches sharing their best solutions', () => {
  it("takes up another search's better solution, routes and breaks as published", () => {
    const problem = lineProblem();
    const good = plan(problem, [
      [0, 1, 2],
      [3, 4, 5],
    ]);
    const poor = plan(problem, [
      [5, 0, 4],
      [1, 3, 2],
    ]);
    expect(good.cost).toBeLessThan(poor.cost);
    const [mine, theirs] = seats(problem);
    theirs.publish(good);
    const scratch = new Solution(problem);

    expect(mine.adoptBetter(poor, scratch)).toBe(true);
    expect(nodes(scratch)).toEqual(nodes(good));
    expect(scratch.cost).toBe(good.cost);
    expect(scratch.unassignedCount).toBe(0);
    expect(scratch.routes.every((route) => route.feasible)).toBe(true);
    expect(Array.from(scratch.jobRoute)).toEqual(Array.from(good.jobRoute));
  });

  it('keeps its own when the published one is no better, or when none is', () => {
    const problem = lineProblem();
    const good = plan(problem, [
      [0, 1, 2],
      [3, 4, 5],
    ]);
    const poor = plan(problem, [
      [5, 0, 4],
      [1, 3, 2],
    ]);
    const [mine, theirs] = seats(problem);
    const scratch = new Solution(problem);

    expect(mine.adoptBetter(good, scratch)).toBe(false);
    theirs.publish(poor);
    expect(mine.adoptBetter(good, scratch)).toBe(false);
    theirs.publish(good);
    expect(mine.adoptBetter(good, scratch)).toBe(false);
  });

  it('a solution serving more jobs is better whatever it costs', () => {
    const problem = lineProblem();
    const complete = plan(problem, [
      [5, 0, 4],
      [1, 3, 2],
    ]);
    const cheapButShort = plan(problem, [
      [0, 1],
      [3, 4, 5],
    ]);
    expect(cheapButShort.cost).toBeLessThan(complete.cost);
    const [mine, theirs] = seats(problem);
    theirs.publish(complete);

    expect(mine.adoptBetter(cheapButShort, new Solution(problem))).toBe(true);
  });

  it('does not join a board sized for another input', () => {
    const problem = lineProblem();
    const buffer = createBoard(2, problem.vehicleCount, problem.jobCount + 1, 1);

    expect(
      SolutionBoard.join({ buffer, searches: 2, slot: 0 }, problem.vehicleCount, problem.jobCount + 1),
    ).toBe(null);
  });
});
