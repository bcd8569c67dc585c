/**
 * The rule of a `from`/`to` pair that bounds a search or a plan (optimization runs, appointment
 * slots): `to` after `from`, at most `maxDays` later, each breach at `#/…/to`. For `.check()` on
 * an object schema whose `from` and `to` are date-times; a missing or malformed one is left to
 * the field's own rule.
 */
import type * as z from 'zod';

export function horizonRule(maxDays: number) {
  const horizonMs = maxDays * 86_400_000;
  return (ctx: z.core.ParsePayload<{ from?: unknown; to?: unknown }>): void => {
    const { from, to } = ctx.value;
    if (typeof from !== 'string' || typeof to !== 'string') return;
    const span = Date.parse(to) - Date.parse(from);
    if (span <= 0) {
      ctx.issues.push({ code: 'custom', input: to, path: ['to'], message: 'must be after from' });
    } else if (span > horizonMs) {
      ctx.issues.push({
        code: 'custom',
        input: to,
        path: ['to'],
        message: `must be at most ${maxDays} days after from`,
      });
    }
  };
}
