/** The `semver` the Lambda bundles get (lib/bundling.ts): the one comparison the X-Ray SDK makes. */
import { describe, expect, it } from 'vitest';
import { gte } from './semver-gte.ts';

describe('Module: semver-gte', () => {
  it.each([
    ['2.1349.0', '2.1349.0', true],
    ['2.1400.0', '2.1349.0', true],
    ['2.200.0', '2.1349.0', false],
    ['v24.1.0', '8.0.0', true],
    ['3.0.0-beta.1', '2.9.9', true],
    ['1.9', '1.10.0', false],
  ])('gte(%s, %s) is %s', (a, b, expected) => {
    expect(gte(a, b)).toBe(expected);
  });
});
