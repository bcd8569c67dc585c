/**
 * Appointment slots: only windows in which the case can start without moving a promised visit,
 * missing a break or running past the shift, best (least added driving) first.
 */
import { describe, expect, it } from 'vitest';
import { type SlotShift, type SlotTask, scheduleOf, searchSlots, slotScore } from './slot-search.ts';
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
      const position = busy.stops.length; // verify independently: every order that keeps the promise
      const orders = Array.from({ length: position + 1 }, (_, p) => [
        ...busy.stops.slice(0, p),
        { ...newCase, windows: [[slot.plannedStart, slot.plannedStart] as const] },
        ...busy.stops.slice(p),
      ]);
      expect(orders.some((tasks) => scheduleOf(busy, tasks, travel) !== undefined)).toBe(true);
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
    const starts = scheduleOf(day, day.stops, travel);

    // Assess
    expect(starts).toEqual([hour(9), hour(10) + 300]);
  });

  it('takes a break in the wait before a visit, and refuses a day whose break cannot fit', () => {
    const waiting = shift('a', [promised('late', depot, hour(12))], {
      breaks: [{ earliestStart: hour(10), latestEnd: hour(11), durationSeconds: 1800 }],
    });
    const squeezed = shift('a', [promised('long', depot, hour(10), 3 * 3600)], {
      breaks: [{ earliestStart: hour(10), latestEnd: hour(11), durationSeconds: 1800 }],
    });

    expect(scheduleOf(waiting, waiting.stops, travel)).toEqual([hour(12)]);
    expect(scheduleOf(squeezed, squeezed.stops, travel)).toBeUndefined();
  });

  it('scores a slot 1 without added driving, halving every 10 minutes', () => {
    expect([slotScore(0), slotScore(600), slotScore(1200)]).toEqual([1, 0.5, 0.25]);
  });
});
