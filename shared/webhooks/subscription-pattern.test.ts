/**
 * What an endpoint receives for the subscriptions it saved: every row and rule of the SPEC table
 * "Subscription patterns", the syntax a save refuses, and the one-delivery-per-endpoint rule.
 */
import { describe, expect, it } from 'vitest';
import {
  compilePatterns,
  matchesAnyPattern,
  matchesEvent,
  matchesSomeEvent,
  patternSyntaxProblem,
} from './subscription-pattern.ts';

interface MatchCase {
  pattern: string;
  event: string;
}

const delivered: MatchCase[] = [
  // An exact name is that event.
  { pattern: 'brand.created', event: 'brand.created' },
  { pattern: 'folder.permissions.updated', event: 'folder.permissions.updated' },
  { pattern: 'custom_object.work-order.created', event: 'custom_object.work-order.created' },
  // A wildcard verb widens the path: every verb and aspect.
  { pattern: 'folder.*', event: 'folder.updated' },
  { pattern: 'folder.*', event: 'folder.permissions.updated' },
  { pattern: 'folder.permissions.*', event: 'folder.permissions.updated' },
  // <plugin_key>.* is everything of that plugin.
  { pattern: 'myplugin.*', event: 'myplugin.report.created' },
  // A leading * is any path of one or more segments.
  { pattern: '*.created', event: 'area.created' },
  { pattern: '*.created', event: 'folder.permissions.created' },
  { pattern: '*.created', event: 'custom_object.invoice.created' },
  { pattern: '*.created', event: 'myplugin.report.created' },
  { pattern: '*.permissions.updated', event: 'folder.permissions.updated' },
  // * alone is everything.
  { pattern: '*', event: 'brand.created' },
  { pattern: '*', event: 'folder.permissions.updated' },
  { pattern: '*', event: 'test.webhook' },
  { pattern: '*', event: 'custom_object.invoice.created' },
  // custom_object.<slug>.* is every event of that custom object.
  { pattern: 'custom_object.invoice.*', event: 'custom_object.invoice.created' },
  { pattern: 'custom_object.invoice.*', event: 'custom_object.invoice.deleted' },
  // A * in the middle is one segment.
  { pattern: 'custom_object.*.created', event: 'custom_object.invoice.created' },
  { pattern: 'custom_object.*.created', event: 'custom_object.work-order.created' },
  // Wildcards combine by the same rules.
  { pattern: 'custom_object.*.*', event: 'custom_object.invoice.updated' },
  { pattern: '*.*.created', event: 'folder.permissions.created' },
  { pattern: '*.permissions.*', event: 'folder.permissions.updated' },
  { pattern: '*.*', event: 'area.created' },
];

const notDelivered: MatchCase[] = [
  { pattern: 'brand.created', event: 'brand.updated' },
  { pattern: 'brand.created', event: 'brand.created.extra' },
  // A named verb pins the path.
  { pattern: 'folder.updated', event: 'folder.permissions.updated' },
  // A wildcard verb needs at least one more segment, and prefixes match whole segments.
  { pattern: 'folder.*', event: 'folder' },
  { pattern: 'folder.*', event: 'folder_archive.updated' },
  { pattern: 'folder.*', event: 'area.updated' },
  { pattern: 'folder.permissions.*', event: 'folder.updated' },
  // <plugin_key>.* never matches a generic event.
  { pattern: 'myplugin.*', event: 'area.created' },
  { pattern: 'myplugin.*', event: 'myplugin_legacy.report.created' },
  // Suffixes match whole segments too, and a leading * needs at least one segment.
  { pattern: '*.created', event: 'area.updated' },
  { pattern: '*.created', event: 'area.recreated' },
  { pattern: '*.created', event: 'area.created.reverted' },
  { pattern: '*.permissions.updated', event: 'permissions.updated' },
  // A * in the middle is exactly one segment, never none or two.
  { pattern: 'custom_object.*.created', event: 'custom_object.invoice.line.created' },
  { pattern: 'custom_object.*.created', event: 'custom_object.created' },
  { pattern: 'custom_object.*.created', event: 'custom_object.invoice.updated' },
  { pattern: 'custom_object.*.created', event: 'area.invoice.created' },
  { pattern: 'custom_object.invoice.*', event: 'custom_object.invoice_archive.created' },
  { pattern: 'custom_object.invoice.*', event: 'custom_object.payment.created' },
  { pattern: 'custom_object.*.*', event: 'custom_object.invoice' },
  { pattern: '*.*.created', event: 'area.created' },
  { pattern: '*.permissions.*', event: 'permissions.updated' },
  { pattern: '*.permissions.*', event: 'folder.permissions' },
  // A malformed pattern matches nothing, even what it seems to mean.
  { pattern: 'fold*', event: 'folder.updated' },
  { pattern: '*er.updated', event: 'folder.updated' },
  { pattern: 'folder.**', event: 'folder.updated' },
  { pattern: 'Folder.updated', event: 'Folder.updated' },
  { pattern: ' brand.created', event: 'brand.created' },
  // A malformed event name is no event: not even * matches it.
  { pattern: '*', event: 'Area.created' },
  { pattern: '*', event: 'area' },
  { pattern: '*', event: 'area..created' },
  { pattern: '*', event: '' },
  { pattern: 'folder.*', event: 'folder.updated.' },
];

interface SyntaxCase {
  pattern: string;
  reason: RegExp;
}

const emptySegment = /single dots, with no leading or trailing dot/;
const partialWildcard = /\* stands for whole segments/;
const alphabet = /segments are lowercase letters, digits, _ and -/;

const malformed: SyntaxCase[] = [
  { pattern: '', reason: /it is empty/ },
  { pattern: '.', reason: emptySegment },
  { pattern: '.folder.updated', reason: emptySegment },
  { pattern: 'folder.updated.', reason: emptySegment },
  { pattern: 'folder..updated', reason: emptySegment },
  { pattern: 'folder.*.', reason: emptySegment },
  { pattern: 'fold*', reason: partialWildcard },
  { pattern: 'fold*.updated', reason: partialWildcard },
  { pattern: '*er.created', reason: partialWildcard },
  { pattern: 'folder.up*', reason: partialWildcard },
  { pattern: '**', reason: partialWildcard },
  { pattern: 'folder.**', reason: partialWildcard },
  { pattern: '**.created', reason: partialWildcard },
  { pattern: 'Folder.updated', reason: /found "F"/ },
  { pattern: 'folder.Updated', reason: /found "U"/ },
  { pattern: ' folder.*', reason: /found " "/ },
  { pattern: 'folder.* ', reason: /found " "/ },
  { pattern: 'folder .updated', reason: alphabet },
  { pattern: 'folder.updated\n', reason: /found "\\n"/ },
  { pattern: 'folder\t.updated', reason: /found "\\t"/ },
  { pattern: 'folder/updated', reason: /found "\/"/ },
  { pattern: 'folder:updated', reason: alphabet },
  { pattern: 'fólder.updated', reason: /found "ó"/ },
  { pattern: 'folder.?', reason: alphabet },
  { pattern: 'CASE_CREATED:V1', reason: alphabet },
];

const wellFormed = [
  ...new Set(delivered.map(({ pattern }) => pattern)),
  'folder.updated',
  '*.*.*',
  // Well-formed, though it matches nothing: every event has a verb (see matchesSomeEvent).
  'folder',
  'a-.-_.0',
];

describe('Function: matchesEvent', () => {
  describe('delivers', () => {
    it.each(delivered)('$pattern vs $event', ({ pattern, event }) => {
      expect(matchesEvent(pattern, event)).toBe(true);
    });
  });

  describe('does not deliver', () => {
    it.each(notDelivered)('$pattern vs $event', ({ pattern, event }) => {
      expect(matchesEvent(pattern, event)).toBe(false);
    });
  });
});

describe('Function: patternSyntaxProblem', () => {
  describe('accepts', () => {
    it.each(wellFormed)('%j', (pattern) => {
      expect(patternSyntaxProblem(pattern)).toBeUndefined();
    });
  });

  describe('refuses with a reason', () => {
    it.each(malformed)('$pattern', ({ pattern, reason }) => {
      expect(patternSyntaxProblem(pattern)?.reason).toMatch(reason);
    });
  });
});

describe('Function: matchesAnyPattern', () => {
  it('delivers once when several overlapping subscriptions match', () => {
    // Act
    const answer = matchesAnyPattern(
      ['folder.*', '*.updated', 'folder.permissions.updated', '*'],
      'folder.permissions.updated',
    );

    // Assess: one boolean per endpoint and event, however many patterns agree.
    expect(answer).toBe(true);
  });

  it('does not deliver when no subscription matches, or there are none', () => {
    expect(matchesAnyPattern(['folder.*', '*.deleted', 'brand.created'], 'area.created')).toBe(false);
    expect(matchesAnyPattern([], 'area.created')).toBe(false);
  });

  it('still delivers for the other subscriptions when one stored pattern is malformed', () => {
    expect(matchesAnyPattern(['Area.*', 'area.created'], 'area.created')).toBe(true);
    expect(matchesAnyPattern(['fold*', '*.created'], 'folder.created')).toBe(true);
  });
});

describe('Function: compilePatterns', () => {
  it('answers every event of a stream like matchesAnyPattern does', () => {
    // Prepare
    const subscriptions = ['brand.created', 'folder.*', 'custom_object.*.created', '*.deleted'];
    const events = [
      'brand.created',
      'brand.updated',
      'folder.permissions.updated',
      'folder_archive.updated',
      'custom_object.invoice.created',
      'custom_object.invoice.updated',
      'area.deleted',
      'Area.deleted',
    ];

    // Act
    const matches = compilePatterns(subscriptions);

    // Assess
    expect(events.filter((event) => matches(event))).toEqual([
      'brand.created',
      'folder.permissions.updated',
      'custom_object.invoice.created',
      'area.deleted',
    ]);
    for (const event of events) expect(matches(event)).toBe(matchesAnyPattern(subscriptions, event));
  });

  it('keeps the dispatcher moving for the largest, most adversarial subscription list', () => {
    // Prepare: 100 subscriptions of 511 characters that open at both ends and almost match.
    const subscriptions = Array.from({ length: 100 }, (_, i) => `*.${'a.'.repeat(252)}${i}.*`);
    expect(subscriptions.every((pattern) => pattern.length <= 512)).toBe(true);
    const longEvent = `${'a.'.repeat(500)}created`;

    // Act
    const matches = compilePatterns(subscriptions);

    // Assess: no backtracking blow-up (this would not finish otherwise), and the right answers.
    expect(matches(longEvent)).toBe(false);
    expect(matches(`x.${'a.'.repeat(252)}7.created`)).toBe(true);
  });
});

describe('Function: matchesSomeEvent', () => {
  const catalog = [
    'area.created',
    'area.updated',
    'folder.permissions.updated',
    'custom_object.invoice.created',
    'myplugin.report.created',
  ];

  it.each(['area.created', 'area.*', 'folder.*', '*.created', '*', 'custom_object.*.created', 'myplugin.*'])(
    'accepts %s, which selects an event of the catalog',
    (pattern) => {
      expect(matchesSomeEvent(pattern, catalog)).toBe(true);
    },
  );

  it.each([
    'brand.created',
    'brand.*',
    '*.archived',
    'folder.updated',
    'folder',
    'custom_object.payment.*',
    'otherplugin.*',
    'fold*',
    '',
  ])('refuses %j, which can never match the catalog', (pattern) => {
    expect(matchesSomeEvent(pattern, catalog)).toBe(false);
  });

  it('refuses even * while the catalog is empty', () => {
    expect(matchesSomeEvent('*', [])).toBe(false);
  });
});
