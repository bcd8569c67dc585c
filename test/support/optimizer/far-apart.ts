/**
 * The smallest question about fleet size: depot 0, two jobs each 10 from the depot and 1,000 from
 * each other, two vehicles of fixed cost `fixed`. One vehicle for both costs 1,020 + fixed, two
 * cost 40 + 2 × fixed: the objective prefers two vehicles while fixed < 980.
 */
export const farApartJobs = (fixed: number) => ({
  jobs: [
    { id: 1, location_index: 1 },
    { id: 2, location_index: 2 },
  ],
  vehicles: [1, 2].map((id) => ({ id, start_index: 0, end_index: 0, costs: { fixed } })),
  matrices: {
    car: {
      durations: [
        [0, 10, 10],
        [10, 0, 1000],
        [10, 1000, 0],
      ],
    },
  },
});
