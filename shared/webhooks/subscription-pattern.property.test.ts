/**
 * Properties of subscription matching, checked against a reference reading of the SPEC rules
 * written here independently of the segment walker: each pattern becomes an anchored regex
 * (a first or last `*` is one or more segments, any other `*` exactly one). Patterns and events are
 * drawn from a small segment alphabet, and events are often cut from a pattern's own shape, so
 * that matches actually happen; a fixed-seed sample checks that both answers are common.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compilePatterns,
  matchesAnyPattern,
  matchesEvent,
  matchesSomeEvent,
  patternSyntaxProblem,
} from './subscription-pattern.ts';

// --- The reference reading -------------------------------------------------------------------

const oneSegment = '[a-z0-9_-]+';
const oneOrMoreSegments = `${oneSegment}(?:\\.${oneSegment})*`;
const referenceEventName = /^[a-z0-9_-]+(?:\.[a-z0-9_-]+)+$/;
const referencePatternGrammar = /^(?:\*|[a-z0-9_-]+)(?:\.(?:\*|[a-z0-9_-]+))*$/;

function referenceRegex(pattern: string): RegExp {
  const segments = pattern.split('.');
  const last = segments.length - 1;
  // Named segments hold only [a-z0-9_-]: no regex metacharacter outside a class.
  const parts = segments.map((segment, i) => {
    if (segment !== '*') return segment;
    return i === 0 || i === last ? oneOrMoreSegments : oneSegment;
  });
  return new RegExp(`^${parts.join('\\.')}$`);
}

function referenceMatches(pattern: string, event: string): boolean {
  return (
    referencePatternGrammar.test(pattern) &&
    referenceEventName.test(event) &&
    referenceRegex(pattern).test(event)
  );
}

// --- Generators ------------------------------------------------------------------------------

/** Few, overlapping segments, so that independently drawn patterns and events meet. */
const smallSegment = fc.constantFrom('a', 'b', 'folder', 'permissions', 'created', 'work-order', 'x_y', '0');
/** Any segment of the alphabet, for the rules that must hold for every name. */
const anySegment = fc.stringMatching(/^[a-z0-9_-]{1,12}$/);

const path = (segment: fc.Arbitrary<string>, minLength: number) =>
  fc.array(segment, { minLength, maxLength: 5 }).map((segments) => segments.join('.'));

const smallEventName = path(smallSegment, 2);
const anyEventName = path(anySegment, 2);
const patternSegments = fc.array(fc.oneof(smallSegment, fc.constant('*')), { minLength: 1, maxLength: 5 });
const smallPattern = patternSegments.map((segments) => segments.join('.'));

/** A pattern and an event of its shape: each `*` filled with one or two segments (one too many in the middle). */
const patternWithLookalike = fc
  .tuple(
    patternSegments,
    fc.array(fc.array(smallSegment, { minLength: 1, maxLength: 2 }), { minLength: 5, maxLength: 5 }),
  )
  .map(([segments, fills]) => ({
    pattern: segments.join('.'),
    event: segments.flatMap((segment, i) => (segment === '*' ? (fills[i] ?? []) : [segment])).join('.'),
  }));

/** Strings that are mostly almost right: dots, stars, upper case, spaces, non-ASCII. */
const junk = fc.string({
  unit: fc.constantFrom('a', 'b', '-', '_', '.', '.', '*', '*', 'A', ' ', 'é'),
  maxLength: 12,
});

const pair = fc.oneof(
  patternWithLookalike,
  fc.record({ pattern: smallPattern, event: smallEventName }),
  fc.record({ pattern: junk, event: fc.oneof(junk, smallEventName) }),
);

// --- Properties ------------------------------------------------------------------------------

describe('Subscription matching, by property', () => {
  it('delivers exactly the events the reference reading of the pattern selects', () => {
    fc.assert(
      fc.property(pair, ({ pattern, event }) => {
        expect(matchesEvent(pattern, event)).toBe(referenceMatches(pattern, event));
      }),
      { numRuns: 2_000 },
    );
  });

  it('draws pairs that match and pairs that do not, in good number', () => {
    const sample = fc.sample(patternWithLookalike, { numRuns: 1_000, seed: 20_240_601 });
    const matching = sample.filter(({ pattern, event }) => referenceMatches(pattern, event)).length;
    expect(matching).toBeGreaterThan(200);
    expect(matching).toBeLessThan(800);
  });

  it('refuses on save exactly the subscriptions outside the pattern grammar', () => {
    fc.assert(
      fc.property(fc.oneof(junk, smallPattern), (pattern) => {
        expect(patternSyntaxProblem(pattern) === undefined).toBe(referencePatternGrammar.test(pattern));
      }),
      { numRuns: 2_000 },
    );
  });

  it('delivers every well-formed event to a * subscription', () => {
    fc.assert(
      fc.property(anyEventName, (event) => {
        expect(matchesEvent('*', event)).toBe(true);
      }),
    );
  });

  it('delivers only the event itself to an exact-name subscription', () => {
    fc.assert(
      fc.property(anyEventName, fc.oneof(anyEventName, smallEventName), (name, event) => {
        expect(matchesEvent(name, name)).toBe(true);
        expect(matchesEvent(name, event)).toBe(name === event);
      }),
    );
  });

  it('delivers every verb and aspect of a path to path.*', () => {
    fc.assert(
      fc.property(path(anySegment, 1), path(anySegment, 1), (resourcePath, rest) => {
        expect(matchesEvent(`${resourcePath}.*`, `${resourcePath}.${rest}`)).toBe(true);
        expect(matchesEvent(`${resourcePath}.*`, resourcePath)).toBe(false);
      }),
    );
  });

  it('delivers a verb on every path to *.verb', () => {
    fc.assert(
      fc.property(path(anySegment, 1), anySegment, (resourcePath, verb) => {
        expect(matchesEvent(`*.${verb}`, `${resourcePath}.${verb}`)).toBe(true);
      }),
    );
  });

  it('delivers once per endpoint when any of its subscriptions matches, compiled or not', () => {
    const subscriptions = fc.array(fc.oneof(smallPattern, junk), { maxLength: 6 });
    fc.assert(
      fc.property(subscriptions, fc.oneof(smallEventName, junk), (patterns, event) => {
        const expected = patterns.some((pattern) => matchesEvent(pattern, event));
        expect(matchesAnyPattern(patterns, event)).toBe(expected);
        expect(compilePatterns(patterns)(event)).toBe(expected);
      }),
      { numRuns: 1_000 },
    );
  });

  it('accepts on save exactly the patterns that match some event of the catalog', () => {
    const catalog = fc.array(smallEventName, { maxLength: 8 });
    fc.assert(
      fc.property(fc.oneof(smallPattern, junk), catalog, (pattern, events) => {
        expect(matchesSomeEvent(pattern, events)).toBe(
          events.some((event) => referenceMatches(pattern, event)),
        );
      }),
      { numRuns: 1_000 },
    );
  });
});
