/**
 * The occurrences of a maintenance plan's recurrence: RFC 5545 RRULE expansion by the `rrule`
 * library, never by arithmetic of our own. The rule is expanded in floating local time (wall-clock
 * date-times of the plan's IANA time zone, which rrule represents as UTC dates), and each wall time
 * is then mapped to its instant in that zone. So an occurrence at 09:00 Europe/Berlin stays 09:00
 * local across a daylight-saving change (08:00Z in winter, 07:00Z in summer), which rrule's own
 * `tzid` handling does not promise on every host. Wall times a change skips or repeats follow
 * RFC 5545 (3.3.5): a skipped one is read with the offset before the gap (02:30 becomes 03:30), a
 * repeated one is its first instant.
 */
import * as rrulePackage from 'rrule';

/**
 * rrule's exports, however it was loaded: Node's ESM loader reads its CommonJS build and offers
 * only `default` (its named exports are not detectable), while the Lambda bundles (esbuild,
 * `module` first) read its ES build, which has named exports and no default.
 */
export const rrule =
  (rrulePackage as typeof rrulePackage & { default?: typeof rrulePackage }).default ?? rrulePackage;

const { RRule, Frequency } = rrule;
type RuleOptions = NonNullable<ConstructorParameters<typeof RRule>[0]>;

/** What a recurrence is defined by (maintenance-plan.schema.ts). */
export interface Recurrence {
  /** RRULE value without the `RRULE:` prefix, e.g. `FREQ=MONTHLY;BYMONTHDAY=31`. */
  rrule: string;
  /** The first occurrence's wall time in `timezone`, `YYYY-MM-DDTHH:mm:ss`. */
  dtstart: string;
  /** IANA time zone name, e.g. `Europe/Berlin`. */
  timezone: string;
  /** No occurrence at or after this instant (RFC 3339), besides the rule's own COUNT or UNTIL. */
  end?: string | undefined;
}

const hourMs = 3_600_000;
const dayMs = 24 * hourMs;
const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(timezone: string): Intl.DateTimeFormat {
  let format = formats.get(timezone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formats.set(timezone, format);
  }
  return format;
}

/** Whether Intl knows the zone (the names of the IANA database, e.g. `America/New_York`). */
export function isTimeZone(timezone: string): boolean {
  try {
    formatOf(timezone);
    return true;
  } catch {
    return false;
  }
}

/** The wall time of an instant in a zone, as floating ms (its UTC fields are the local ones). */
export function wallTimeOf(instantMs: number, timezone: string): number {
  const parts: Record<string, number> = {};
  for (const part of formatOf(timezone).formatToParts(new Date(instantMs)))
    parts[part.type] = Number(part.value);
  const field = (name: string) => parts[name] ?? 0;
  const wall = Date.UTC(
    field('year'),
    field('month') - 1,
    field('day'),
    field('hour'),
    field('minute'),
    field('second'),
  );
  return wall + (((instantMs % 1000) + 1000) % 1000);
}

/** The zone's offset from UTC at an instant, in ms (whole seconds). */
function offsetAt(instantMs: number, timezone: string): number {
  const whole = Math.floor(instantMs / 1000) * 1000;
  return wallTimeOf(whole, timezone) - whole;
}

/** The instant of a wall time in a zone, by RFC 5545 for the wall times a change skips or repeats. */
export function instantOfWallTime(wallMs: number, timezone: string): number {
  const before = offsetAt(wallMs - 14 * hourMs, timezone);
  const after = offsetAt(wallMs + 14 * hourMs, timezone);
  const valid = [...new Set([before, after])]
    .map((offset) => wallMs - offset)
    .filter((instant) => offsetAt(instant, timezone) === wallMs - instant)
    .sort((a, b) => a - b);
  // None: the wall time lies in a gap; the offset before it moves it forward by the gap's length.
  return valid[0] ?? wallMs - before;
}

/** `YYYY-MM-DDTHH:mm:ss` as floating ms, or undefined when it is no real date-time. */
export function parseWallTime(value: string): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/.exec(value);
  if (!match) return undefined;
  const [y, mo, d, h, mi, s] = match.slice(1).map(Number) as [number, number, number, number, number, number];
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  const back = new Date(ms);
  const same =
    back.getUTCFullYear() === y &&
    back.getUTCMonth() === mo - 1 &&
    back.getUTCDate() === d &&
    back.getUTCHours() === h &&
    back.getUTCMinutes() === mi;
  return same && s < 60 ? ms : undefined;
}

/** An occurrence as published and claimed: UTC, whole seconds, `…Z`. */
export function formatOccurrence(instantMs: number): string {
  return new Date(instantMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Frequencies finer than hourly would make thousands of cases per horizon: not maintenance. */
const refusedFrequencies = new Set<number>([Frequency.SECONDLY, Frequency.MINUTELY]);

const weekday = '(MO|TU|WE|TH|FR|SA|SU)';
const signedUpTo = (max: number) => (value: string) =>
  /^[+-]?\d{1,3}$/.test(value) && Math.abs(Number(value)) >= 1 && Math.abs(Number(value)) <= max;
const upTo = (min: number, max: number) => (value: string) =>
  /^\d{1,2}$/.test(value) && Number(value) >= min && Number(value) <= max;

/**
 * The value ranges of RFC 5545 (3.3.10) for each rule part: rrule's parser takes `BYDAY=XX`,
 * `BYHOUR=25` or `COUNT=abc` without a word, and fails (or expands nonsense) later.
 */
const partValues: Record<string, (value: string) => boolean> = {
  FREQ: () => true,
  UNTIL: (value) => /^\d{8}(T\d{6}Z?)?$/.test(value),
  COUNT: (value) => /^[1-9]\d{0,5}$/.test(value),
  INTERVAL: (value) => /^[1-9]\d{0,3}$/.test(value),
  BYSECOND: upTo(0, 60),
  BYMINUTE: upTo(0, 59),
  BYHOUR: upTo(0, 23),
  BYDAY: (value) => new RegExp(`^([+-]?\\d{1,2})?${weekday}$`).test(value),
  BYMONTHDAY: signedUpTo(31),
  BYYEARDAY: signedUpTo(366),
  BYWEEKNO: signedUpTo(53),
  BYMONTH: upTo(1, 12),
  BYSETPOS: signedUpTo(366),
  WKST: (value) => new RegExp(`^${weekday}$`).test(value),
};

/** Why a rule part is not one of RFC 5545, or undefined when every part is. */
function partError(rrule: string): string | undefined {
  const seen = new Set<string>();
  for (const part of rrule.split(';')) {
    const [name = '', value = '', ...rest] = part.split('=');
    const key = name.toUpperCase();
    const check = partValues[key];
    if (!check || rest.length > 0) return `has an unknown part ${part}`;
    if (seen.has(key)) return `has ${key} twice`;
    seen.add(key);
    const values =
      key === 'FREQ' || key === 'UNTIL' || key === 'COUNT' || key === 'INTERVAL' || key === 'WKST'
        ? [value]
        : value.split(',');
    const wrong = values.find((one) => !check(one.toUpperCase()));
    if (wrong !== undefined) return `has an invalid ${key} value ${wrong || '(empty)'}`;
  }
  return undefined;
}

/** The rule's options as rrule reads them, or why it is not a rule we accept. */
export function parseRule(rrule: string): { options: Partial<RuleOptions> } | { error: string } {
  if (/[\r\n:]/.test(rrule)) {
    return { error: 'must be the value of an RRULE (e.g. FREQ=WEEKLY;BYDAY=MO), without RRULE: or DTSTART' };
  }
  const invalidPart = partError(rrule);
  if (invalidPart) return { error: `is not an RFC 5545 recurrence rule: it ${invalidPart}` };
  let options: Partial<RuleOptions>;
  try {
    options = RRule.parseString(rrule);
  } catch (error) {
    return { error: `is not an RFC 5545 recurrence rule: ${(error as Error).message}` };
  }
  if (!/(^|;)FREQ=/i.test(rrule)) return { error: 'needs a FREQ' };
  // rrule reads an unknown FREQ as none at all.
  if (options.freq === undefined || options.freq === null || refusedFrequencies.has(options.freq)) {
    return { error: 'FREQ must be HOURLY, DAILY, WEEKLY, MONTHLY or YEARLY' };
  }
  if (options.count !== undefined && options.count !== null && options.until) {
    return { error: 'COUNT and UNTIL must not both be given (RFC 5545)' };
  }
  return { options };
}

/** An UNTIL in UTC (`…Z`) bounds instants: as a floating rule it becomes that instant's wall time. */
function floatingUntil(rrule: string, until: Date | null | undefined, timezone: string): Date | null {
  if (!until) return null;
  const utc = /(^|;)UNTIL=\d{8}T\d{6}Z/i.test(rrule);
  return utc ? new Date(wallTimeOf(until.getTime(), timezone)) : until;
}

/** The rrule object of a recurrence, expanding wall times (floating). Throws on an invalid rule. */
function floatingRule(recurrence: Recurrence) {
  const parsed = parseRule(recurrence.rrule);
  if (!('options' in parsed)) throw new Error(`rrule ${parsed.error}`);
  const dtstart = parseWallTime(recurrence.dtstart);
  if (dtstart === undefined) throw new Error('dtstart is not a wall time');
  return new RRule({
    ...parsed.options,
    dtstart: new Date(dtstart),
    tzid: null,
    until: floatingUntil(recurrence.rrule, parsed.options.until, recurrence.timezone),
  });
}

/**
 * The occurrences in [from, to) as instants (ms), ascending, before `end`. The window is widened by
 * a day on each side in wall time, so no zone offset can cut an occurrence off at its edges.
 */
export function occurrencesBetween(recurrence: Recurrence, fromMs: number, toMs: number): number[] {
  const end = recurrence.end === undefined ? Number.POSITIVE_INFINITY : Date.parse(recurrence.end);
  const upper = Math.min(toMs, end);
  if (upper <= fromMs) return [];
  const rule = floatingRule(recurrence);
  const walls = rule.between(
    new Date(wallTimeOf(fromMs, recurrence.timezone) - dayMs),
    new Date(wallTimeOf(upper, recurrence.timezone) + dayMs),
    true,
  );
  const instants = walls
    .map((wall) => instantOfWallTime(wall.getTime(), recurrence.timezone))
    .filter((instant) => instant >= fromMs && instant < upper);
  // An hourly rule's skipped 02:30 lands on its own 03:30: one occurrence, not two.
  return [...new Set(instants)].sort((a, b) => a - b);
}
