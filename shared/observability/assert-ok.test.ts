/** The `assert` the Lambda bundles get (lib/bundling.ts): cls-hooked's `assert.ok` checks. */
import { describe, expect, it } from 'vitest';
import assert, { ok } from './assert-ok.ts';

describe('Module: assert-ok', () => {
  it('passes a truthy value and throws an AssertionError with the message for a falsy one', () => {
    expect(() => ok(1, 'never')).not.toThrow();
    expect(() => assert('context', 'never')).not.toThrow();
    expect(() => ok(undefined, 'context must be provided for entering')).toThrow(
      expect.objectContaining({ name: 'AssertionError', message: 'context must be provided for entering' }),
    );
    expect(() => ok(0)).toThrow(expect.objectContaining({ name: 'AssertionError' }));
  });
});
