/**
 * Booking an appointment (POST /api/v2/cases/{case_id}/book, API-DECISIONS.md "Dispatch you can
 * trust"): a slot as GET /api/v2/scheduling/slots offered it, and the lock the case gets. Published
 * schema name: CreateAppointmentBooking.
 */
import * as z from 'zod';
import { dateTime } from '../../schema/fields.ts';
import { scheduleLocks } from '../cases/case-enums.ts';
import { slotLimits } from './slots.schema.ts';

export const BookAppointmentSchema = z
  .object({
    shift_id: z.uuid().meta({
      description:
        'The shift of the slot (`shift_id` of a slot): a shift of the workspace (422 at `#/shift_id`).',
    }),
    start: dateTime().meta({
      description: 'The slot opens (its `start`): the arrival window promised to the customer starts here.',
    }),
    end: dateTime().meta({
      description:
        `The slot closes (its \`end\`): after start, at most ${slotLimits.maxSlotSeconds / 3600} hours later ` +
        '(422 at `#/end`).',
    }),
    schedule_lock: z
      .enum(scheduleLocks)
      .optional()
      .meta({
        description:
          'The lock the booked case gets (default NONE): the promised window holds whatever it is (it becomes ' +
          "the case's time_windows, which every run keeps); ASSIGNEE also keeps the technician, TIME the start " +
          'the booking plans, ASSIGNEE_AND_TIME both.',
      }),
  })
  .check((ctx) => {
    const { start, end } = ctx.value;
    if (typeof start !== 'string' || typeof end !== 'string') return;
    const length = (Date.parse(end) - Date.parse(start)) / 1000;
    if (!(length > 0 && length <= slotLimits.maxSlotSeconds)) {
      ctx.issues.push({
        code: 'custom',
        input: end,
        path: ['end'],
        message: `must be after start, at most ${slotLimits.maxSlotSeconds / 3600} hours later`,
      });
    }
  })
  .meta({ id: 'CreateAppointmentBooking' });

export type BookAppointment = z.output<typeof BookAppointmentSchema>;
