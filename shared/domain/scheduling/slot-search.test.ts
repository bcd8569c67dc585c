/**
 * Appointment slots: only windows in which the case can start without moving a promised visit,
 * missing a break or running past the shift, best (least added driving) first.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkTourFeasible } from '../../../test/support/tour-feasibility.ts';
import { daySchedule } from './day-schedule.ts';
import { bestInsertion, type SlotShift, type SlotTask, searchSlots, slotScore } from './slot-search.ts';
import { greatCircleMetres, type Place } from './travel.ts';

const depot = { latitude: 52.52, longitude: 13.405 };
const at = (dLat: number, dLon: number) => ({
  latitude: depot.latitude + dLat,
  longitude: depot.longitude + dLon,
});
const hour = (h: number) => Date.UTC(2026, 11, 1) / 1000 + h * 3600;
/** 40 km/h over 1.3 × the great circle, as the local travel model. */
const travel = (a: Place, b: Place) => Math.round((greatCircleMetres(a, b) * 1.3) / (40_000 / 3600));

const shift = (id: string, stops: SlotTask[] = [], overrides: Partial<SlotShift> = {}): SlotShift => ({
  id,
  userId: `user-${id}`,
  start: hour(8),
  end: hour(16),
  startPlace: depot,
  endPlace: depot,
  breaks: [],
  skillIds: ['gas'],
  stops,
  ...overrides,
});

const promised = (caseId: string, place: Place, start: number, durationSeconds = 3600): SlotTask => ({
  caseId,
  place,
  durationSeconds,
  windows: [[start, start]],
});

const newCase: SlotTask = { caseId: 'new', place: at(0.01, 0.01), durationSeconds: 3600, windows: [] };
const request = {
  task: newCase,
  requiredSkillIds: ['gas'],
  from: hour(8),
  to: hour(16),
  slotSeconds: 7200,
  limit: 10,
};

describe('Function: searchSlots', () => {
  it('offers every slot of a free day, each with a start inside it', () => {
    // Act
    const slots = searchSlots(request, [shift('a')], travel);

    // Assess: 08-10, 10-12, 12-14, and 14-16 only while the work and the drive home still fit
    expect(slots.map((slot) => (slot.start - hour(0)) / 3600).sort((a, b) => a - b)).toEqual([8, 10, 12, 14]);
    for (const slot of slots) {
      expect(slot.plannedStart).toBeGreaterThanOrEqual(slot.start);
      expect(slot.plannedStart).toBeLessThanOrEqual(slot.end);
    }
  });

  it('never offers a slot that would move a promised visit', () => {
    // Arrange: a visit promised at 10:00 for two hours, far away
    const busy = shift('a', [promised('booked', at(0.1, 0.1), hour(10), 7200)]);

    // Act
    const slots = searchSlots(request, [busy], travel);

    // Assess: 10-12 cannot start the new case without delaying or abandoning the booked one
    const starts = slots.map((slot) => (slot.start - hour(0)) / 3600);
    expect(starts).not.toContain(10);
    for (const slot of slots) {
      // verify independently: the tour with the case where the slot puts it, starting then
      const stops = [...busy.stops];
      stops.splice(slot.position, 0, { ...newCase, windows: [[slot.plannedStart, slot.plannedStart]] });
      expect(checkTourFeasible({ shift: busy, stops, travel })).toMatchObject({ feasible: true });
    }
  });

  it('ranks the slot that adds the least driving first', () => {
    // Arrange: shift b already has a visit next door; shift a starts far away
    const far = shift('a', [], { startPlace: at(0.2, 0.2), endPlace: at(0.2, 0.2) });
    const nextDoor = shift('b', [promised('neighbour', at(0.011, 0.011), hour(8.5))]);

    // Act
    const [first] = searchSlots(request, [far, nextDoor], travel);

    // Assess
    expect(first?.shiftId).toBe('b');
    expect(first?.addedTravelSeconds).toBeLessThan(120);
  });

  it('offers nothing from a technician without the skill', () => {
    expect(searchSlots(request, [shift('a', [], { skillIds: ['electric'] })], travel)).toEqual([]);
  });

  it('keeps a break in its window when it places the case', () => {
    // Arrange: a 45-minute break between 12:00 and 13:00 leaves no room for a one-hour case at 12
    const lunch = shift('a', [], {
      breaks: [{ earliestStart: hour(12), latestEnd: hour(13), durationSeconds: 2700 }],
    });
    const noon = { ...request, from: hour(12), to: hour(13), slotSeconds: 3600 };

    // Act
    const slots = searchSlots(noon, [lunch], travel);

    // Assess: the only start in 12-13 that keeps the break is after it
    for (const slot of slots) expect(slot.plannedStart).toBeGreaterThanOrEqual(hour(12.75));
  });

  it('leaves a break for later when taking it first would move a promised visit', () => {
    // Arrange: a break of 30 minutes anywhere from 10:00 to 13:00, visits promised at 9:00 and
    // 10:05 (the optimizer puts such a break after the second visit)
    const day = shift(
      'a',
      [promised('first', depot, hour(9)), promised('second', at(0.002, 0), hour(10) + 300)],
      {
        breaks: [{ earliestStart: hour(10), latestEnd: hour(13), durationSeconds: 1800 }],
      },
    );

    // Act
    const schedule = daySchedule(day, day.stops, travel);

    // Assess
    expect(schedule?.tasks.map((times) => times.start)).toEqual([hour(9), hour(10) + 300]);
    expect(schedule?.breaks[0]?.gap).toBe(2);
  });

  it('takes a break in the wait before a visit, and refuses a day whose break cannot fit', () => {
    const waiting = shift('a', [promised('late', depot, hour(12))], {
      breaks: [{ earliestStart: hour(10), latestEnd: hour(11), durationSeconds: 1800 }],
    });
    const squeezed = shift('a', [promised('long', depot, hour(10), 3 * 3600)], {
      breaks: [{ earliestStart: hour(10), latestEnd: hour(11), durationSeconds: 1800 }],
    });

    expect(daySchedule(waiting, waiting.stops, travel)?.tasks).toEqual([
      { arrival: hour(10.5), start: hour(12) },
    ]);
    expect(daySchedule(waiting, waiting.stops, travel)?.breaks).toEqual([
      { start: hour(10), end: hour(10.5), gap: 0 },
    ]);
    expect(daySchedule(squeezed, squeezed.stops, travel)).toBeUndefined();
  });

  it('offers a slot that needs the break taken before the first visit', () => {
    // Arrange: a 10-minute break within 8:00–8:30, a visit promised at 8:20 at the depot; the case
    // (10 minutes, from 8:05, there too) can start by 8:20 only at 8:10, after the break
    const early = shift('a', [promised('promised', depot, hour(8) + 1200, 600)], {
      breaks: [{ earliestStart: hour(8), latestEnd: hour(8.5), durationSeconds: 600 }],
    });
    const here = {
      ...newCase,
      place: depot,
      durationSeconds: 600,
      windows: [[hour(8) + 300, hour(16)] as const],
    };
    const morning = { ...request, task: here, from: hour(8), to: hour(8) + 1200, slotSeconds: 1200 };

    // Act
    const slots = searchSlots(morning, [early], travel);

    // Assess
    expect(slots).toEqual([
      expect.objectContaining({ position: 0, arrival: hour(8) + 600, plannedStart: hour(8) + 600 }),
    ]);
  });

  it('says where the case goes and when the technician gets there', () => {
    // Arrange: a visit promised at 11:00 far away
    const busy = shift('a', [promised('booked', at(0.1, 0.1), hour(11))]);

    // Act
    const slots = searchSlots(request, [busy], travel);

    // Assess: before the visit in the morning, after it later on; never waiting for the slot
    const first = slots.find((slot) => slot.start === hour(8));
    expect(first?.position).toBe(0);
    expect(slots.find((slot) => slot.start === hour(12))?.position).toBe(1);
    for (const slot of slots) expect(slot.arrival).toBeLessThanOrEqual(slot.plannedStart);
    expect(first?.arrival).toBe(hour(8) + travel(depot, newCase.place));
  });

  it('never places the case before the stops under way or past', () => {
    // Arrange: the first visit (next door to the case) is fixed; the second is far away
    const day = shift(
      'a',
      [promised('done', at(0.011, 0.011), hour(8.5)), promised('later', at(0.1, 0.1), hour(14))],
      {
        fixedStops: 1,
      },
    );

    // Act
    const slots = searchSlots(request, [day], travel);

    // Assess
    expect(slots.length).toBeGreaterThan(0);
    for (const slot of slots) expect(slot.position).toBeGreaterThanOrEqual(1);
  });

  it('scores a slot 1 without added driving, halving every 10 minutes', () => {
    expect([slotScore(0), slotScore(600), slotScore(1200)]).toEqual([1, 0.5, 0.25]);
  });
});

describe('Function: bestInsertion', () => {
  const west = at(0, -0.05);
  const east = at(0, 0.05);
  const stop = (caseId: string, place: Place): SlotTask => ({
    caseId,
    place,
    durationSeconds: 1800,
    windows: [],
  });

  it('puts the case where it adds the least driving, and returns the whole day', () => {
    // Arrange: north then east; the case lies on the way home from east
    const day = shift('a', [stop('n', at(0.05, 0)), stop('e', east)]);
    const task = { ...newCase, place: at(0, 0.03) };

    // Act
    const insertion = bestInsertion(day, task, travel);

    // Assess: between east and home
    expect(insertion?.position).toBe(2);
    expect(insertion?.schedule.tasks).toHaveLength(3);
    expect(insertion?.schedule.tasks[2]).toEqual({ arrival: insertion?.arrival, start: insertion?.start });
    expect(insertion?.addedTravelSeconds).toBe(
      travel(east, task.place) + travel(task.place, depot) - travel(east, depot),
    );
  });

  it('takes the earliest of positions that add the same driving', () => {
    // Arrange: the case at the depot of a day with one stop at the depot too: every position adds nothing
    const day = shift('a', [stop('here', depot)]);

    // Act / Assess
    expect(bestInsertion(day, { ...newCase, place: depot }, travel)?.position).toBe(0);
  });

  it('goes after the fixed stops even when before them would be cheaper, and to the next best when the best fails', () => {
    // Arrange: the case next to the first stop, which is fixed; the second stop is promised at 9:00
    const day = shift('a', [stop('w', west), promised('e', east, hour(9))], { fixedStops: 1 });
    const task = { ...newCase, place: west };

    // Act
    const insertion = bestInsertion(day, task, travel);

    // Assess: not at 0 (fixed), not at 1 (an hour's work there would miss 9:00), so after east
    expect(insertion?.position).toBe(2);
  });

  it('finds no place when the case fits nowhere in the day', () => {
    const day = shift('a', [promised('long', depot, hour(8), 8 * 3600)]);
    expect(bestInsertion(day, newCase, travel)).toBeUndefined();
  });

  it('finds the cheapest position an independent brute force finds, on random small days', () => {
    // Places 0..3 with a random travel matrix; days of ≤ 5 stops and ≤ 2 breaks, some stops fixed
    const place = (index: number): Place => ({ latitude: index, longitude: 0 });
    const window = fc.tuple(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 200 }));
    const visit = fc.record({
      place: fc.integer({ min: 0, max: 3 }),
      durationSeconds: fc.integer({ min: 0, max: 40 }),
      windows: fc.array(window, { maxLength: 2 }),
    });
    const randomDay = fc.record({
      length: fc.integer({ min: 0, max: 600 }),
      breaks: fc.array(fc.tuple(window, fc.integer({ min: 0, max: 40 })), { maxLength: 2 }),
      stops: fc.array(visit, { maxLength: 5 }),
      fixed: fc.integer({ min: 0, max: 5 }),
      task: visit,
      matrix: fc.array(fc.array(fc.integer({ min: 0, max: 30 }), { minLength: 4, maxLength: 4 }), {
        minLength: 4,
        maxLength: 4,
      }),
    });
    const taskOf = (
      v: { place: number; durationSeconds: number; windows: Array<[number, number]> },
      id: string,
    ) => ({
      caseId: id,
      place: place(v.place),
      durationSeconds: v.durationSeconds,
      windows: v.windows.map(([open, length]) => [open, open + length] as const),
    });

    fc.assert(
      fc.property(randomDay, (random) => {
        // Prepare
        const day = shift(
          'a',
          random.stops.map((v, i) => taskOf(v, `stop-${i}`)),
          {
            start: 0,
            end: random.length,
            startPlace: place(0),
            endPlace: place(1),
            breaks: random.breaks.map(([[open, span], durationSeconds]) => ({
              earliestStart: open,
              latestEnd: open + span,
              durationSeconds,
            })),
            fixedStops: random.fixed,
          },
        );
        const task = taskOf(random.task, 'new');
        const drive = (a: Place, b: Place) => random.matrix[a.latitude]?.[b.latitude] ?? 0;

        // Act
        const insertion = bestInsertion(day, task, drive);

        // Assess: every allowed position checked apart, the least added driving first
        const placeAt = (i: number) => (i < 0 ? day.startPlace : (day.stops[i]?.place ?? day.endPlace));
        const works = Array.from({ length: day.stops.length + 1 }, (_, position) => position)
          .filter((position) => position >= Math.min(random.fixed, day.stops.length))
          .map((position) => {
            const stops = [...day.stops];
            stops.splice(position, 0, task);
            const added =
              drive(placeAt(position - 1), task.place) +
              drive(task.place, placeAt(position)) -
              drive(placeAt(position - 1), placeAt(position));
            return {
              position,
              added,
              feasible: checkTourFeasible({ shift: day, stops, travel: drive }).feasible,
            };
          })
          .filter((option) => option.feasible)
          .sort((a, b) => a.added - b.added || a.position - b.position);
        expect(insertion && { position: insertion.position, added: insertion.addedTravelSeconds }).toEqual(
          works[0] && { position: works[0].position, added: works[0].added },
        );
      }),
      { numRuns: 3000 },
    );
  });
});
