/**
 * The days a user's scope holds (API-DECISIONS.md, "Offline sync for field apps"): from 7 days
 * back to 14 days ahead of the day of the pull, UTC days (YYYY-MM-DD), both ends included. The
 * window moves with the calendar; a pull on a later day than its cursor's sends what entered and
 * what left (pull.service.ts).
 */
export interface SyncWindow {
  from: string;
  to: string;
}

export const windowDaysBack = 7;
export const windowDaysAhead = 14;

const dayMs = 24 * 3600 * 1000;

export const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

export function addDays(day: string, days: number): string {
  return dayOf(Date.parse(`${day}T00:00:00Z`) + days * dayMs);
}

export function windowOn(day: string): SyncWindow {
  return { from: addDays(day, -windowDaysBack), to: addDays(day, windowDaysAhead) };
}

export const inWindow = (window: SyncWindow, day: string | undefined): boolean =>
  day !== undefined && day >= window.from && day <= window.to;

/**
 * The day ranges a move of the window from `before`'s day to `after`'s changes: the days that
 * left it (their records are evicted) and the days that entered it (sent whole). Either may be
 * empty (undefined); without overlap, the whole old window left and the whole new one entered.
 */
export function windowMove(
  before: SyncWindow,
  after: SyncWindow,
): { left?: SyncWindow; entered?: SyncWindow } {
  const leftTo = before.to < after.from ? before.to : addDays(after.from, -1);
  const enteredFrom = before.to < after.from ? after.from : addDays(before.to, 1);
  return {
    ...(before.from <= leftTo ? { left: { from: before.from, to: leftTo } } : {}),
    ...(enteredFrom <= after.to ? { entered: { from: enteredFrom, to: after.to } } : {}),
  };
}
