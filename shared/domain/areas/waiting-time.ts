/**
 * An area's operational waiting time: how long a customer in the area currently waits for a
 * visit, as an ISO 8601 duration (SPEC.md, Conventions: `PTnHnMnS`). Accepted: days, hours,
 * minutes and whole seconds in that order (`PT45M`, `P1DT2H`, `PT0S`), or whole weeks alone
 * (`P2W`). Years and months are refused: they have no fixed length (use `P30D`). At most
 * 365 days, upper-case designators only, stored as sent.
 */
import { text } from '../../schema/fields.ts';

const weeks = /^P(\d+)W$/;
const dayTime = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/;

/** The longest waiting time accepted, in seconds (365 days). */
export const maxWaitingSeconds = 365 * 86_400;

/** Seconds of a duration, or a reason it is not one we accept. */
export function parseWaitingTime(value: string): { seconds: number } | { error: string } {
  const week = weeks.exec(value);
  if (week) return bounded(Number(week[1]) * 7 * 86_400);
  const match = dayTime.exec(value);
  // `P` alone and `PT` alone name no component; `T` must be followed by one.
  if (!match || value === 'P' || value.endsWith('T')) {
    const datePart = value.split('T')[0] ?? '';
    return /^P[\dYMWD]*[YM]/.test(datePart)
      ? { error: 'years and months have no fixed length; use days, e.g. P30D' }
      : { error: 'must be an ISO 8601 duration such as PT45M or P1DT2H' };
  }
  const [, d, h, m, s] = match;
  return bounded(Number(d ?? 0) * 86_400 + Number(h ?? 0) * 3600 + Number(m ?? 0) * 60 + Number(s ?? 0));
}

function bounded(seconds: number): { seconds: number } | { error: string } {
  return seconds <= maxWaitingSeconds ? { seconds } : { error: 'must be at most 365 days (P365D)' };
}

export const waitingTimePattern = '^P(?:\\d+W|(?:\\d+D)?(?:T(?:\\d+H)?(?:\\d+M)?(?:\\d+S)?)?)$';

/** The waiting_time field of area writes: blank is field-required, anything else must parse. */
export function waitingTime() {
  return text({ max: 32 })
    .check((ctx) => {
      if (!ctx.value.trim()) return;
      const parsed = parseWaitingTime(ctx.value);
      if ('error' in parsed) ctx.issues.push({ code: 'custom', input: ctx.value, message: parsed.error });
    })
    .meta({ format: 'duration', pattern: waitingTimePattern, example: 'PT45M' });
}
