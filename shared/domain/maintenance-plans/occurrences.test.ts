/**
 * The occurrences of a plan, checked against the rrule library's own expansion: rrule expands the
 * wall times (floating, as RFC 5545 expands a DTSTART;TZID rule), and each occurrence we generate
 * must be that wall time in the plan's zone; plus the instants pinned where a daylight-saving
 * change makes the difference.
 */
import { describe, expect, it } from 'vitest';
import {
  formatOccurrence,
  instantOfWallTime,
  occurrencesBetween,
  parseRule,
  type Recurrence,
  rrule,
  wallTimeOf,
} from './occurrences.ts';

const { rrulestr } = rrule;

const ms = (iso: string) => Date.parse(iso);
const between = (recurrence: Recurrence, from: string, to: string) =>
  occurrencesBetween(recurrence, ms(from), ms(to)).map(formatOccurrence);

/** rrule's own expansion of the rule as wall times (`YYYY-MM-DDTHH:mm:ss`), from dtstart on. */
function libraryWallTimes(recurrence: Recurrence, limit: number): string[] {
  const dtstart = recurrence.dtstart.replace(/[-:]/g, '');
  const rule = rrulestr(`DTSTART:${dtstart}\nRRULE:${recurrence.rrule}`);
  return rule.all((_, index) => index < limit).map((date) => date.toISOString().slice(0, 19));
}

/** Our occurrences as wall times of the plan's zone. */
function ourWallTimes(recurrence: Recurrence, from: string, to: string): string[] {
  return occurrencesBetween(recurrence, ms(from), ms(to)).map((instant) =>
    new Date(wallTimeOf(instant, recurrence.timezone)).toISOString().slice(0, 19),
  );
}

describe('Module: occurrences', () => {
  describe.each([
    {
      title: 'daily at 09:00 Europe/Berlin across the March change',
      recurrence: { rrule: 'FREQ=DAILY', dtstart: '2026-03-26T09:00:00', timezone: 'Europe/Berlin' },
      window: ['2026-03-26T00:00:00Z', '2026-04-02T00:00:00Z'],
    },
    {
      title: 'weekly on Sunday 08:30 America/New_York across both changes',
      recurrence: {
        rrule: 'FREQ=WEEKLY;BYDAY=SU',
        dtstart: '2026-01-04T08:30:00',
        timezone: 'America/New_York',
      },
      window: ['2026-01-01T00:00:00Z', '2027-01-01T00:00:00Z'],
    },
    {
      title: 'monthly on the 31st (months without one are skipped)',
      recurrence: {
        rrule: 'FREQ=MONTHLY;BYMONTHDAY=31',
        dtstart: '2026-01-31T07:00:00',
        timezone: 'Europe/Berlin',
      },
      window: ['2026-01-01T00:00:00Z', '2027-01-01T00:00:00Z'],
    },
    {
      title: 'yearly on 29 February (leap years only)',
      recurrence: {
        rrule: 'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29',
        dtstart: '2024-02-29T10:00:00',
        timezone: 'Europe/Berlin',
      },
      window: ['2024-01-01T00:00:00Z', '2037-01-01T00:00:00Z'],
    },
    {
      title: 'weekly with COUNT=5',
      recurrence: { rrule: 'FREQ=WEEKLY;COUNT=5', dtstart: '2026-10-12T09:00:00', timezone: 'Europe/Berlin' },
      window: ['2026-01-01T00:00:00Z', '2027-06-01T00:00:00Z'],
    },
    {
      title: 'daily with a local UNTIL',
      recurrence: {
        rrule: 'FREQ=DAILY;UNTIL=20261103T083000',
        dtstart: '2026-10-28T08:30:00',
        timezone: 'America/New_York',
      },
      window: ['2026-01-01T00:00:00Z', '2027-01-01T00:00:00Z'],
    },
  ])('Rule: $title', ({ recurrence, window }) => {
    it('has the wall times of the library’s own expansion, each in the plan’s zone', () => {
      const [from, to] = window as [string, string];
      const ours = ourWallTimes(recurrence, from, to);
      const library = libraryWallTimes(recurrence, 200).filter((wall) => {
        const instant = instantOfWallTime(Date.parse(`${wall}Z`), recurrence.timezone);
        return instant >= ms(from) && instant < ms(to);
      });
      expect(ours.length).toBeGreaterThan(0);
      expect(ours).toEqual(library);
    });
  });

  describe('Method: occurrencesBetween', () => {
    it('keeps 09:00 Europe/Berlin at 09:00 local across the March and October changes', () => {
      const recurrence = { rrule: 'FREQ=DAILY', dtstart: '2026-03-27T09:00:00', timezone: 'Europe/Berlin' };
      expect(between(recurrence, '2026-03-27T00:00:00Z', '2026-03-31T00:00:00Z')).toEqual([
        '2026-03-27T08:00:00Z',
        '2026-03-28T08:00:00Z',
        '2026-03-29T07:00:00Z',
        '2026-03-30T07:00:00Z',
      ]);
      expect(between(recurrence, '2026-10-24T00:00:00Z', '2026-10-27T00:00:00Z')).toEqual([
        '2026-10-24T07:00:00Z',
        '2026-10-25T08:00:00Z',
        '2026-10-26T08:00:00Z',
      ]);
    });

    it('keeps 08:30 America/New_York at 08:30 local across the March and November changes', () => {
      const recurrence = {
        rrule: 'FREQ=DAILY',
        dtstart: '2026-03-06T08:30:00',
        timezone: 'America/New_York',
      };
      expect(between(recurrence, '2026-03-07T00:00:00Z', '2026-03-10T00:00:00Z')).toEqual([
        '2026-03-07T13:30:00Z',
        '2026-03-08T12:30:00Z',
        '2026-03-09T12:30:00Z',
      ]);
      expect(between(recurrence, '2026-10-31T00:00:00Z', '2026-11-03T00:00:00Z')).toEqual([
        '2026-10-31T12:30:00Z',
        '2026-11-01T13:30:00Z',
        '2026-11-02T13:30:00Z',
      ]);
    });

    it('moves a wall time the spring change skips forward by the gap, and takes the first of a repeated one', () => {
      const skipped = { rrule: 'FREQ=DAILY', dtstart: '2026-03-28T02:30:00', timezone: 'Europe/Berlin' };
      expect(between(skipped, '2026-03-28T00:00:00Z', '2026-03-31T00:00:00Z')).toEqual([
        '2026-03-28T01:30:00Z',
        '2026-03-29T01:30:00Z', // 03:30 CEST: 02:30 does not exist that day
        '2026-03-30T00:30:00Z',
      ]);
      const repeated = { rrule: 'FREQ=DAILY', dtstart: '2026-10-24T02:30:00', timezone: 'Europe/Berlin' };
      expect(between(repeated, '2026-10-25T00:00:00Z', '2026-10-26T00:00:00Z')).toEqual([
        '2026-10-25T00:30:00Z',
      ]);
    });

    it('generates only the 31sts: seven months a year', () => {
      const recurrence = {
        rrule: 'FREQ=MONTHLY;BYMONTHDAY=31',
        dtstart: '2026-01-31T09:00:00',
        timezone: 'Europe/Berlin',
      };
      const months = between(recurrence, '2026-01-01T00:00:00Z', '2027-01-01T00:00:00Z').map((iso) =>
        iso.slice(5, 10),
      );
      expect(months).toEqual(['01-31', '03-31', '05-31', '07-31', '08-31', '10-31', '12-31']);
    });

    it('generates 29 February only in leap years', () => {
      const recurrence = { rrule: 'FREQ=YEARLY', dtstart: '2024-02-29T10:00:00', timezone: 'Europe/Berlin' };
      expect(between(recurrence, '2024-01-01T00:00:00Z', '2033-01-01T00:00:00Z')).toEqual([
        '2024-02-29T09:00:00Z',
        '2028-02-29T09:00:00Z',
        '2032-02-29T09:00:00Z',
      ]);
    });

    it('counts COUNT from dtstart, whatever window is asked', () => {
      const recurrence = {
        rrule: 'FREQ=WEEKLY;COUNT=3',
        dtstart: '2026-03-02T10:00:00',
        timezone: 'Europe/Berlin',
      };
      expect(between(recurrence, '2026-03-05T00:00:00Z', '2027-01-01T00:00:00Z')).toEqual([
        '2026-03-09T09:00:00Z',
        '2026-03-16T09:00:00Z',
      ]);
    });

    it('reads an UNTIL ending in Z as an instant, inclusive', () => {
      const at = {
        rrule: 'FREQ=WEEKLY;UNTIL=20260316T090000Z',
        dtstart: '2026-03-02T10:00:00',
        timezone: 'Europe/Berlin',
      };
      expect(between(at, '2026-01-01T00:00:00Z', '2027-01-01T00:00:00Z')).toHaveLength(3);
      const before = { ...at, rrule: 'FREQ=WEEKLY;UNTIL=20260316T085959Z' };
      expect(between(before, '2026-01-01T00:00:00Z', '2027-01-01T00:00:00Z')).toHaveLength(2);
    });

    it('stops before the plan’s end', () => {
      const recurrence = {
        rrule: 'FREQ=DAILY',
        dtstart: '2026-05-01T09:00:00',
        timezone: 'Europe/Berlin',
        end: '2026-05-03T07:00:00Z',
      };
      expect(between(recurrence, '2026-05-01T00:00:00Z', '2026-06-01T00:00:00Z')).toEqual([
        '2026-05-01T07:00:00Z',
        '2026-05-02T07:00:00Z',
      ]);
    });
  });

  describe('Method: parseRule', () => {
    it.each([
      ['FREQ=FORTNIGHTLY', /FREQ must be/],
      ['FREQ=DAILY;EVERY=2', /not an RFC 5545 recurrence rule/],
      ['FREQ=DAILY;BYDAY=XX', /invalid BYDAY value XX/],
      ['FREQ=DAILY;BYHOUR=25', /invalid BYHOUR/],
      ['FREQ=DAILY;COUNT=abc', /invalid COUNT/],
      ['FREQ=DAILY;INTERVAL=0', /invalid INTERVAL/],
      ['FREQ=MONTHLY;BYMONTHDAY=40', /invalid BYMONTHDAY/],
      ['FREQ=DAILY;FREQ=WEEKLY', /FREQ twice/],
      ['BYDAY=MO', /needs a FREQ/],
      ['FREQ=MINUTELY', /FREQ must be/],
      ['RRULE:FREQ=DAILY', /without RRULE:/],
      ['FREQ=DAILY;COUNT=3;UNTIL=20270101T000000Z', /COUNT and UNTIL/],
    ])('refuses %s', (rule, reason) => {
      const parsed = parseRule(rule);
      expect('error' in parsed && parsed.error).toMatch(reason);
    });

    it.each([
      'FREQ=WEEKLY;BYDAY=MO,TH;INTERVAL=2',
      'FREQ=MONTHLY;BYDAY=-1FR',
      'FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1',
      'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;WKST=SU',
      'FREQ=DAILY;UNTIL=20270101T000000Z',
    ])('accepts %s', (rule) => {
      expect(parseRule(rule)).toHaveProperty('options');
    });
  });
});
