/**
 * Phone numbers (SPEC.md, Conventions): an explicit `+` country code is required, common
 * formatting is accepted, the result is E.164. National numbers and `00` dial prefixes are
 * field-level 422s; no default country is ever assumed. Parsing is libphonenumber-js.
 *
 * Its `min` metadata, not `max`: we only ask whether a number is possible (its length per
 * country calling code) and for its E.164 form, which `max`'s per-type patterns never change
 * (compared on 3.3 million generated numbers, every calling code and length 1–17), and `max`
 * adds about 75 KB minified to every bundle that validates a phone number.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import * as z from 'zod';
import { text } from './fields.ts';

/** A phone number with an explicit `+` country code, normalised to E.164. */
export function phoneNumber() {
  return text({ max: 32 }).transform((value, ctx) => {
    const trimmed = value.trim();
    if (!trimmed.startsWith('+')) {
      ctx.issues.push({
        code: 'custom',
        input: value,
        message: trimmed.startsWith('00')
          ? 'international dial prefixes (00) are not accepted; start with + and the country code'
          : 'national numbers are not accepted; start with + and the country code',
      });
      return z.NEVER;
    }
    const parsed = parsePhoneNumberFromString(trimmed);
    if (!parsed?.isPossible()) {
      ctx.issues.push({ code: 'custom', input: value, message: 'is not a valid phone number' });
      return z.NEVER;
    }
    return parsed.number;
  });
}
