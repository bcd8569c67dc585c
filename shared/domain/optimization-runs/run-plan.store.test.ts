/**
 * A plan stored in parts: cut into pieces that each fit an item (never inside a character),
 * joined back in order to the same plan — one of 1,000 cases well over DynamoDB's 400 KB included;
 * a plan stored whole before parts existed still reads; a missing part is an error, never a
 * shorter plan. Storage is an in-memory stand-in for the table adapter.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Key, StoredRecord } from '../../data/table.ts';
import type { RunPlan } from './optimization-run.record.ts';

const items = vi.hoisted(() => new Map<string, Record<string, unknown>>());
const id = (key: Key) => `${key.pk}\u0000${key.sk}`;

vi.mock('../../data/table.ts', () => ({
  getRecord: async (key: Key) => items.get(id(key)),
  getRecords: async (keys: readonly Key[]) => keys.map((key) => items.get(id(key))),
  putRecords: async (puts: ReadonlyArray<{ key: Key; record: StoredRecord }>) => {
    for (const { key, record } of puts) items.set(id(key), { ...record });
  },
  discardRecords: async (keys: readonly Key[]) => {
    for (const key of keys) items.delete(id(key));
  },
}));

const {
  discardPlanParts,
  maxPartBytes,
  planFromParts,
  planHeaderCreate,
  planParts,
  readPlan,
  splitUtf8,
  writePlanParts,
} = await import('./run-plan.store.ts');
const { keys } = await import('../../data/keys.ts');

const uuid = (n: number) => `0190a0b0-0000-7000-8000-${String(n).padStart(12, '0')}`;

/** A plan of `cases` cases on `shifts` shifts, each case planned, read with its basis and place. */
function planOf(cases: number, shifts: number, runId = uuid(999_999)): RunPlan {
  const perShift = Math.ceil(cases / shifts);
  const at = (minutes: number) => new Date(Date.UTC(2030, 0, 1, 8) + minutes * 60_000).toISOString();
  return {
    id: runId,
    lock_version: 0,
    routes: Array.from({ length: shifts }, (_, s) => ({
      shift_id: uuid(100_000 + s),
      user_id: uuid(200_000 + s),
      stops: Array.from({ length: perShift }, (_, i) => ({
        case_id: uuid(s * perShift + i),
        arrival: at(i * 20),
        start: at(i * 20),
        end: at(i * 20 + 15),
      })),
      distance_m: 12_345,
      travel_duration: 'PT1H2M',
    })),
    unassigned: [{ case_id: uuid(cases), reason: 'NO_CAPACITY' }],
    // Every case SCHEDULED on its shift's PLANNED tour already: a day planned again.
    basis: {
      cases: Object.fromEntries(
        Array.from({ length: cases }, (_, i) => [
          uuid(i),
          {
            v: 3,
            status: 'SCHEDULED',
            assignee_id: uuid(200_000),
            scheduled_start: at(i),
            scheduled_end: at(i + 15),
          },
        ]),
      ),
      shifts: Object.fromEntries(Array.from({ length: shifts }, (_, s) => [uuid(100_000 + s), { v: 1 }])),
      tours: Object.fromEntries(
        Array.from({ length: shifts }, (_, s) => [
          uuid(300_000 + s),
          {
            v: 2,
            shift_id: uuid(100_000 + s),
            driver_id: uuid(200_000 + s),
            stops: Array.from({ length: perShift }, (_, i) => ({
              case_id: uuid(s * perShift + i),
              planned_arrival: at(i * 20),
            })),
          },
        ]),
      ),
    },
    places: {
      cases: Object.fromEntries(
        Array.from({ length: cases }, (_, i) => [uuid(i), [52.52 + i / 1e4, 13.4 - i / 1e4]]),
      ),
      shifts: Object.fromEntries(
        Array.from({ length: shifts }, (_, s) => [
          uuid(100_000 + s),
          { start: [52.5, 13.4], end: [52.5, 13.4] },
        ]),
      ),
    },
  };
}

beforeEach(() => items.clear());

describe('Function: splitUtf8', () => {
  it('cuts text into pieces of at most the bytes asked for, never inside a character, and joins back', () => {
    // Prepare: 1-, 2-, 3- and 4-byte characters, so some cut falls inside each kind
    const text = 'aé€😀'.repeat(1000);

    // Act
    const pieces = splitUtf8(text, 7);

    // Assess
    expect(pieces.join('')).toBe(text);
    for (const piece of pieces) {
      expect(Buffer.byteLength(piece)).toBeLessThanOrEqual(7);
      expect(piece).not.toContain('\uFFFD');
    }
  });

  it('keeps a short text whole', () => {
    expect(splitUtf8('{}', maxPartBytes)).toEqual(['{}']);
  });
});

describe('Function: planParts / planFromParts', () => {
  it('stores a plan of 1,000 cases on 100 shifts (over 400 KB) in parts that each fit an item, and reads it back', () => {
    // Prepare
    const plan = planOf(1000, 100);

    // Act
    const { header, parts } = planParts(plan);

    // Assess
    expect(header.total_bytes).toBeGreaterThan(400 * 1024);
    expect(header.part_count).toBe(parts.length);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) expect(Buffer.byteLength(part)).toBeLessThanOrEqual(maxPartBytes);
    expect(planFromParts(header, parts)).toEqual(plan);
  });

  it('refuses parts that do not add up to the header', () => {
    const { header, parts } = planParts(planOf(1000, 100));

    expect(() => planFromParts(header, parts.slice(0, -1))).toThrow(/incomplete/);
  });
});

describe('Function: readPlan', () => {
  const workspace = 'ws-1';

  it('reads a plan written in parts with its header', async () => {
    // Prepare
    const plan = planOf(1000, 100);
    const header = await writePlanParts(workspace, plan);
    const create = planHeaderCreate(workspace, header);
    if (create.kind !== 'create') throw new Error('the header is created');
    items.set(id(create.key), { ...create.record });

    // Act
    const read = await readPlan(workspace, plan.id);

    // Assess
    expect(read).toEqual(plan);
    expect(create.record).toEqual({
      id: plan.id,
      lock_version: 0,
      part_count: header.part_count,
      total_bytes: header.total_bytes,
    });
    expect(items.has(id(keys.planPart(workspace, plan.id, header.part_count - 1)))).toBe(true);
  });

  it('reads a plan stored whole in its OPT_PLAN item, as before parts', async () => {
    const plan = planOf(10, 2);
    items.set(`T#${workspace}#OPT_PLAN\u0000${plan.id}`, { ...plan });

    expect(await readPlan(workspace, plan.id)).toEqual(plan);
  });

  it('answers undefined for a run without a plan, and fails when a part is missing', async () => {
    const plan = planOf(1000, 100);
    const header = await writePlanParts(workspace, plan);
    items.set(`T#${workspace}#OPT_PLAN\u0000${plan.id}`, { ...header });
    items.delete(id(keys.planPart(workspace, plan.id, 1)));

    expect(await readPlan(workspace, uuid(5))).toBeUndefined();
    await expect(readPlan(workspace, plan.id)).rejects.toThrow(/incomplete/);
  });

  it('removes the parts of a plan whose success was not recorded', async () => {
    const plan = planOf(1000, 100);
    const header = await writePlanParts(workspace, plan);

    await discardPlanParts(workspace, header);

    expect(items.size).toBe(0);
  });
});
