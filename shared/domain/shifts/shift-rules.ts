/**
 * The rules between a shift's fields, checked on the shift as it would be stored (a create, or
 * the result of a merge patch), each violation a field error at its pointer, all reported
 * together:
 *
 * - `end` after `start`, at most 24 hours later (a shift is one working day; the list's time
 *   filter relies on the bound: shift.list.ts);
 * - each break inside the shift (`earliest_start` not before start, `latest_end` not after end),
 *   `latest_end` after `earliest_start`, and room for its duration between the two.
 *
 * Pure, so the rules are tested without a store; the references (user, vehicle) and the overlap
 * with the user's other shifts need the store and live in shift.service.ts.
 */
import { parseIsoDuration } from '../../schema/duration.ts';
import type { FieldError } from '../../schema/field-error.ts';
import { maxShiftSeconds, type Shift } from './shift.schema.ts';

const invalid = (pointer: string, detail: string): FieldError => ({ type: 'field-invalid', pointer, detail });

const secondsOf = (duration: string) => {
  const parsed = parseIsoDuration(duration);
  return 'seconds' in parsed ? parsed.seconds : 0;
};

export function shiftErrors(shift: Pick<Shift, 'start' | 'end' | 'breaks'>): FieldError[] {
  const start = Date.parse(shift.start);
  const end = Date.parse(shift.end);
  const errors: FieldError[] = [];
  if (end <= start) errors.push(invalid('#/end', 'must be after start'));
  else if (end - start > maxShiftSeconds * 1000) {
    errors.push(invalid('#/end', 'must be at most 24 hours after start (a shift is one working day)'));
  }
  shift.breaks.forEach((pause, index) => {
    const at = (field: string) => `#/breaks/${index}/${field}`;
    const earliest = Date.parse(pause.earliest_start);
    const latest = Date.parse(pause.latest_end);
    if (earliest < start)
      errors.push(invalid(at('earliest_start'), 'must not be before the start of the shift'));
    if (latest > end) errors.push(invalid(at('latest_end'), 'must not be after the end of the shift'));
    if (latest <= earliest) errors.push(invalid(at('latest_end'), 'must be after earliest_start'));
    else if (earliest + secondsOf(pause.duration) * 1000 > latest) {
      errors.push(invalid(at('duration'), 'does not fit between earliest_start and latest_end'));
    }
  });
  return errors;
}
