/**
 * The service-level detector (docs/service-levels.md): run once a minute (on AWS by a scheduled
 * rule, functions/sla-detector; locally by a timer of `npm start`, shared/local-stack/sla-timer.ts),
 * it reads the minutes of the due-time index (case-due-index.ts) that passed since it last settled
 * one, and writes every case whose moment came and whose sla_status time has changed: a case.updated
 * of actor SYSTEM with previous_attributes.sla_status. It never reads the cases table as a whole.
 *
 * Rules it keeps:
 * - On time: a moment is settled by the first run at or after it, so at most one period late.
 * - Idempotent, and safe with several detectors at once: a case is written only on the version read
 *   (the store's condition). The detector that loses reads the case again, finds its sla_status
 *   already right and writes nothing, so a breach is emitted once. An index item is removed with
 *   the case's write, or once the case is found settled.
 * - The cursor (`through`, the last minute settled) moves only forward, on its own version, and
 *   stays two minutes behind the clock: an item committed while its minute was being read is read
 *   again by the next run.
 */
import { DataError } from '../../data/data-error.ts';
import { keys, slaDueMinute } from '../../data/keys.ts';
import { deleteRecord, getRecord, queryPartition, type StoredRecord, writeItem } from '../../data/table.ts';
import { previousAttributes, systemEvent } from '../../events/domain-event.ts';
import type { Case } from './case.schema.ts';
import { caseStore } from './case.store.ts';
import { type DueIndexEntry, dueIndexKey, minuteMs, minuteOf } from './case-due-index.ts';
import { withPlanningDefaults } from './case-planning.ts';
import { slaMoments, slaStatusAt } from './case-service-level.ts';

/** Where a detector without a cursor starts: an hour back covers a first deployment's restart. */
const firstLookBackMinutes = 60;
/** Minutes one run reads at most: a detector that was down catches up over a few runs. */
const maxMinutesPerRun = 180;
/** How far behind the clock the cursor stays (see the rules above). */
const cursorLagMinutes = 2;
/** Cases settled at once: a busy minute (a whole workspace due at 17:00) in bounded parallel. */
const parallelCases = 8;
/** Attempts on one case against concurrent writers (the API, another detector). */
const maxAttempts = 6;

export interface DetectionReport {
  /** Minutes of the index read. */
  minutes: number;
  /** Index items whose moment had come. */
  due: number;
  /** Cases written (each one case.updated). */
  changed: number;
  /** Cases that could not be settled this run (an outage, endless contention): tried again next run. */
  failed: number;
}

type Log = (message: string, details?: Record<string, unknown>) => void;

const minuteStart = (minute: string) => Date.parse(`${minute}:00.000Z`);

/** What settling one due item did. */
type Settled = 'changed' | 'unchanged';

/**
 * Whether the item under the entry's key now stands for another moment than the one read: a write
 * moved due_by within the same minute after the item was read (the write put the item again, with
 * the case, so the case read after it shows the new moment). That item is not this run's to remove.
 */
export function movedWithinItsMinute(entry: DueIndexEntry, current: Case): boolean {
  const at = Date.parse(entry.at);
  return slaMoments(current).some(
    (moment) => moment.kind === entry.kind && moment.at !== at && minuteOf(moment.at) === minuteOf(at),
  );
}

/** Writes the case's sla_status at `now` if time changed it; removes the index item either way. */
export async function settleDueItem(entry: DueIndexEntry, now: number): Promise<Settled> {
  const store = caseStore.of(entry.workspace_id);
  const itemKey = dueIndexKey(entry.workspace_id, entry.case_id, {
    kind: entry.kind,
    at: Date.parse(entry.at),
  });
  for (let attempt = 1; ; attempt++) {
    const found = await store.getConsistent(entry.case_id);
    if (!found) {
      await deleteRecord(itemKey); // the case is gone (its delete removed its moments: a leftover)
      return 'unchanged';
    }
    const current = withPlanningDefaults(found);
    const keepItem = movedWithinItsMinute(entry, current);
    const status = slaStatusAt(current, now, current);
    if (status === current.sla_status) {
      if (!keepItem) await deleteRecord(itemKey);
      return 'unchanged';
    }
    const next: Case = {
      ...current,
      lock_version: current.lock_version + 1,
      // When it was written (the judging instant `now` may lie a run behind).
      updated_at: new Date().toISOString(),
    };
    if (status) next.sla_status = status;
    else delete next.sla_status;
    const event = systemEvent(
      entry.workspace_id,
      'case.updated',
      { type: 'case', id: current.id },
      next,
      previousAttributes(current, next),
    );
    try {
      // The item leaves with the write; the store adds no index write (no moment moved).
      await store.replace(next, current, event, keepItem ? [] : [{ kind: 'discard', key: itemKey }]);
      return 'changed';
    } catch (error) {
      const lost =
        error instanceof DataError && (error.code === 'version-conflict' || error.code === 'not-found');
      if (!lost || attempt >= maxAttempts) throw error;
      // Someone wrote the case meanwhile (maybe another detector): judge it again as it is now.
    }
  }
}

async function readCursor(): Promise<{ through: string; version: number } | undefined> {
  const found = await getRecord(keys.slaDetectorCursor(), { consistent: true });
  return found ? { through: String(found.through), version: Number(found.lock_version) } : undefined;
}

/** Moves the cursor forward on its version; a detector that lost to another leaves it be. */
async function advanceCursor(cursor: { version: number } | undefined, through: string): Promise<void> {
  const record: StoredRecord = { through, lock_version: (cursor?.version ?? -1) + 1 };
  try {
    await writeItem(
      cursor
        ? {
            kind: 'replace',
            key: keys.slaDetectorCursor(),
            entity: 'sla_cursor',
            record,
            expectedVersion: cursor.version,
          }
        : { kind: 'create', key: keys.slaDetectorCursor(), entity: 'sla_cursor', record },
    );
  } catch (error) {
    const lost =
      error instanceof DataError && (error.code === 'version-conflict' || error.code === 'already-exists');
    if (!lost) throw error;
  }
}

/** Settles the due items of one minute's partition whose moment is at or before `now`. */
async function settleMinute(minute: string, now: number, report: DetectionReport, log: Log) {
  const items = (await queryPartition(slaDueMinute(minute), {
    consistent: true,
  })) as unknown as DueIndexEntry[];
  const due = items.filter((item) => Date.parse(item.at) <= now);
  report.due += due.length;
  let failed = 0;
  for (let start = 0; start < due.length; start += parallelCases) {
    const outcomes = await Promise.allSettled(
      due.slice(start, start + parallelCases).map((item) => settleDueItem(item, now)),
    );
    outcomes.forEach((outcome, index) => {
      if (outcome.status === 'fulfilled') {
        if (outcome.value === 'changed') report.changed++;
        return;
      }
      failed++;
      const item = due[start + index];
      log('service levels: a due case was not settled; the next run tries again', {
        workspaceId: item?.workspace_id,
        caseId: item?.case_id,
        error: String(outcome.reason),
      });
    });
  }
  report.failed += failed;
  return failed === 0;
}

/**
 * One run: every minute from the cursor on to `now`'s (at most `maxMinutesPerRun`), then the cursor
 * moved to the last minute settled whole, `cursorLagMinutes` behind the clock.
 */
export async function detectServiceLevels(
  options: { now?: number; log?: Log } = {},
): Promise<DetectionReport> {
  const now = options.now ?? Date.now();
  const log = options.log ?? (() => {});
  const cursor = await readCursor();
  const nowMinuteStart = minuteStart(minuteOf(now));
  const from = cursor
    ? minuteStart(cursor.through) + minuteMs
    : nowMinuteStart - firstLookBackMinutes * minuteMs;
  const to = Math.min(nowMinuteStart, from + (maxMinutesPerRun - 1) * minuteMs);
  const report: DetectionReport = { minutes: 0, due: 0, changed: 0, failed: 0 };
  let settledThrough: number | undefined;
  let whole = true;
  for (let start = from; start <= to; start += minuteMs) {
    report.minutes++;
    const settled = await settleMinute(minuteOf(start), now, report, log);
    whole &&= settled;
    if (whole) settledThrough = start;
  }
  const keep = Math.min(settledThrough ?? -Infinity, nowMinuteStart - cursorLagMinutes * minuteMs);
  if (Number.isFinite(keep) && (!cursor || keep > minuteStart(cursor.through))) {
    await advanceCursor(cursor, minuteOf(keep));
  }
  return report;
}
