/**
 * ISO 8601 durations (SPEC.md, Conventions: `PTnHnMnS`): accepted as days, hours, minutes and
 * whole seconds in that order (`PT45M`, `P1DT2H`, `PT0S`), or whole weeks alone (`P2W`). Years
 * and months are refused: they have no fixed length (use `P30D`). Upper-case designators only.
 * Answers write the shortest form (`PT1H30M`, `P1DT2H`, `PT0S`).
 */
import { text } from './fields.ts';

const weeks = /^P(\d+)W$/;
const dayTime = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/;

export const isoDurationPattern = '^P(?:\\d+W|(?:\\d+D)?(?:T(?:\\d+H)?(?:\\d+M)?(?:\\d+S)?)?)$';

/** Seconds of a duration, or a reason it is not one we accept. */
export function parseIsoDuration(value: string): { seconds: number } | { error: string } {
  const week = weeks.exec(value);
  if (week) return { seconds: Number(week[1]) * 7 * 86_400 };
  const match = dayTime.exec(value);
  // `P` alone and `PT` alone name no component; `T` must be followed by one.
  if (!match || value === 'P' || value.endsWith('T')) {
    const datePart = value.split('T')[0] ?? '';
    return /^P[\dYMWD]*[YM]/.test(datePart)
      ? { error: 'years and months have no fixed length; use days, e.g. P30D' }
      : { error: 'must be an ISO 8601 duration such as PT45M or P1DT2H' };
  }
  const [, d, h, m, s] = match;
  return { seconds: Number(d ?? 0) * 86_400 + Number(h ?? 0) * 3600 + Number(m ?? 0) * 60 + Number(s ?? 0) };
}

/** The shortest ISO 8601 form of whole seconds: 5400 → `PT1H30M`, 93600 → `P1DT2H`, 0 → `PT0S`. */
export function formatIsoDuration(totalSeconds: number): string {
  let rest = Math.max(0, Math.round(totalSeconds));
  const days = Math.floor(rest / 86_400);
  rest -= days * 86_400;
  const hours = Math.floor(rest / 3600);
  rest -= hours * 3600;
  const minutes = Math.floor(rest / 60);
  const secs = rest - minutes * 60;
  const time = `${hours ? `${hours}H` : ''}${minutes ? `${minutes}M` : ''}${secs ? `${secs}S` : ''}`;
  if (!days && !time) return 'PT0S';
  return `P${days ? `${days}D` : ''}${time ? `T${time}` : ''}`;
}

/**
 * A duration field of a write: blank is field-required, anything else must parse and lie within
 * [min, max] seconds.
 */
export function isoDuration(options: { minSeconds?: number; maxSeconds: number; example?: string }) {
  const { minSeconds = 0, maxSeconds, example = 'PT1H' } = options;
  return text({ max: 32 })
    .check((ctx) => {
      if (!ctx.value.trim()) return;
      const parsed = parseIsoDuration(ctx.value);
      if ('error' in parsed) {
        ctx.issues.push({ code: 'custom', input: ctx.value, message: parsed.error });
      } else if (parsed.seconds < minSeconds || parsed.seconds > maxSeconds) {
        ctx.issues.push({
          code: 'custom',
          input: ctx.value,
          message: `must be between ${formatIsoDuration(minSeconds)} and ${formatIsoDuration(maxSeconds)}`,
        });
      }
    })
    .meta({ format: 'duration', pattern: isoDurationPattern, example });
}
