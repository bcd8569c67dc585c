import { describe, expect, it } from 'vitest';
import { OptimizerInputError, parseVroomInput } from './vroom-input.ts';

const matrix = [
  [0, 5],
  [5, 0],
];
const valid = () => ({
  vehicles: [{ id: 1, start_index: 0, end_index: 0, capacity: [10] }],
  jobs: [
    { id: 1, location_index: 1, delivery: [2] },
    { id: 2, location_index: 1, delivery: [3] },
  ],
  matrices: { car: { durations: matrix } },
});

type Edit = (input: any) => void;

const refusals: Array<{ title: string; edit: Edit; message: string }> = [
  { title: 'a document that is not an object', edit: () => {}, message: '' },
  {
    title: 'a window that ends before it starts',
    edit: (input) => {
      input.jobs[1].time_windows = [
        [10, 20],
        [30, 5],
      ];
    },
    message: 'jobs[1].time_windows[1]: start after end (30 > 5)',
  },
  {
    title: 'a duplicate job id',
    edit: (input) => {
      input.jobs[1].id = 1;
    },
    message: 'jobs[1].id: duplicate job id 1 (also jobs[0])',
  },
  {
    title: 'a priority over 100',
    edit: (input) => {
      input.jobs[0].priority = 101;
    },
    message: 'jobs[0].priority: must be in [0, 100], got 101',
  },
  {
    title: 'amounts of different dimensions',
    edit: (input) => {
      input.jobs[1].delivery = [1, 2];
    },
    message: 'jobs[1].delivery: has 2 dimension(s) but jobs[0].delivery has 1',
  },
  {
    title: 'a location index outside the matrix',
    edit: (input) => {
      input.jobs[0].location_index = 2;
    },
    message: 'jobs[0].location_index: 2 is outside matrices.car (size 2)',
  },
  {
    title: 'a job without location when travel comes from coordinates',
    edit: (input) => {
      delete input.matrices;
    },
    message: 'jobs[0].location: missing',
  },
  {
    title: 'a vehicle without start nor end',
    edit: (input) => {
      delete input.vehicles[0].start_index;
      delete input.vehicles[0].end_index;
    },
    message: 'vehicles[0]: needs a start or an end',
  },
  {
    title: 'a missing capacity when jobs carry amounts',
    edit: (input) => {
      delete input.vehicles[0].capacity;
    },
    message: 'vehicles[0].capacity: missing: jobs carry 1-dimensional amounts',
  },
  {
    title: 'shipments',
    edit: (input) => {
      input.shipments = [{ pickup: { id: 1 }, delivery: { id: 2 } }];
    },
    message: 'shipments: not supported by this solver',
  },
  {
    title: 'a non-square matrix',
    edit: (input) => {
      input.matrices.car.durations = [[0, 1], [1]];
    },
    message: 'matrices.car.durations[1]: expected a row of 2 numbers',
  },
  {
    title: 'a negative service',
    edit: (input) => {
      input.jobs[0].service = -1;
    },
    message: 'jobs[0].service: expected a non-negative number, got number -1',
  },
  {
    title: 'a custom cost per hour next to a cost matrix',
    edit: (input) => {
      input.matrices.car.costs = matrix;
      input.vehicles[0].costs = { per_hour: 7200 };
    },
    message: 'vehicles[0].costs: per_hour or per_km cannot be combined with matrices.car.costs',
  },
  {
    title: 'a setup time',
    edit: (input) => {
      input.jobs[0].setup = 30;
    },
    message: 'jobs[0].setup: setup times are not supported',
  },
  {
    title: 'a duplicate break id',
    edit: (input) => {
      input.vehicles[0].breaks = [
        { id: 4, service: 1 },
        { id: 4, service: 2 },
      ];
    },
    message: 'vehicles[0].breaks[1].id: duplicate break id 4 (also vehicles[0].breaks[0])',
  },
];

describe('Function: parseVroomInput', () => {
  it.each(refusals)('refuses $title, naming the field', ({ title, edit, message }) => {
    // Prepare
    const input: any = title.startsWith('a document') ? [] : valid();
    edit(input);

    // Act
    const read = () => parseVroomInput(input);

    // Assess
    expect(read).toThrow(OptimizerInputError);
    expect(read).toThrow(message || 'input: expected a JSON object, got an array');
  });

  it('sorts and merges a job’s time windows', () => {
    const input: any = valid();
    input.jobs[0].time_windows = [
      [50, 60],
      [0, 10],
      [5, 20],
    ];
    expect(parseVroomInput(input).jobs[0]!.timeWindows).toEqual([
      [0, 20],
      [50, 60],
    ]);
  });

  it('fills missing amounts with zeros and defaults the profile to car', () => {
    const input: any = valid();
    delete input.jobs[1].delivery;
    input.jobs[1].pickup = [4];
    const parsed = parseVroomInput(input);
    expect(parsed.jobs[1]).toMatchObject({ delivery: [0], pickup: [4], priority: 0, service: 0 });
    expect(parsed.vehicles[0]!.profile).toBe('car');
  });

  it('reads the deprecated amount as delivery and matrix as matrices.car.durations', () => {
    const input: any = valid();
    input.matrix = matrix;
    delete input.matrices;
    input.jobs[0].amount = input.jobs[0].delivery;
    delete input.jobs[0].delivery;
    const parsed = parseVroomInput(input);
    expect(parsed.jobs[0]!.delivery).toEqual([2]);
    expect(parsed.matrices.get('car')?.durations).toEqual(matrix);
  });
});
