/**
 * Appointment slots (API-DECISIONS.md, "Appointment slots"): the query that asks where a case
 * could still be booked, and the answer, best first. Published schema names: AppointmentSlot,
 * AppointmentSlotList.
 */
import * as z from 'zod';
import { isoDuration } from '../../schema/duration.ts';
import { dateTime } from '../../schema/fields.ts';
import { horizonRule } from '../../schema/horizon.ts';
import { integerParam } from '../../schema/query-params.ts';

/** The bounds of the query (published in the route's description). */
export const slotLimits = {
  /** The widest [from, to) one request searches: two weeks of a dispatcher's board. */
  maxHorizonDays: 14,
  minSlotSeconds: 15 * 60,
  maxSlotSeconds: 24 * 3600,
  defaultSlotLength: 'PT2H',
  maxItems: 50,
  defaultItems: 10,
} as const;

export const SlotQuery = z
  .object({
    case_id: z.uuid().meta({
      description:
        'The case to book: a case of the workspace (otherwise 404) with a location, not IN_PROGRESS, DONE or ' +
        'CANCELLED (otherwise 422 at `#/query/case_id`).',
    }),
    from: dateTime().meta({ description: 'Start of the search (RFC 3339); the first slot opens here.' }),
    to: dateTime().meta({
      description: `End of the search: after from, at most ${slotLimits.maxHorizonDays} days later.`,
    }),
    limit: integerParam(1, slotLimits.maxItems)
      .optional()
      .meta({
        type: 'integer',
        format: 'int32',
        minimum: 1,
        maximum: slotLimits.maxItems,
        default: slotLimits.defaultItems,
        description: `Slots answered at most, 1..${slotLimits.maxItems}, default ${slotLimits.defaultItems}.`,
      }),
    slot_length: isoDuration({
      minSeconds: slotLimits.minSlotSeconds,
      maxSeconds: slotLimits.maxSlotSeconds,
      example: slotLimits.defaultSlotLength,
    })
      .optional()
      .meta({
        description:
          `How long each offered window is (ISO 8601), PT15M..PT24H, default ${slotLimits.defaultSlotLength}: ` +
          'the windows a customer picks from, `from`, `from` + slot_length, … up to `to`.',
      }),
  })
  .check(horizonRule(slotLimits.maxHorizonDays));

export type SlotQueryInput = z.output<typeof SlotQuery>;

export const AppointmentSlotSchema = z
  .object({
    start: z.iso.datetime().meta({ description: 'The window opens (UTC): the work may start from here.' }),
    end: z.iso.datetime().meta({ description: 'The window closes (UTC): the work starts by then.' }),
    user_id: z.uuid().meta({ description: 'The technician whose shift takes the case.' }),
    shift_id: z.uuid().meta({ description: 'The shift that takes the case.' }),
    added_travel_duration: z.string().meta({
      format: 'duration',
      example: 'PT12M',
      description:
        'Driving the case adds to the shift’s current tour (ISO 8601), the least of any place in it.',
    }),
    score: z
      .number()
      .min(0)
      .max(1)
      .meta({
        description:
          'Higher is better: 1 when the case adds no driving, halving with every 10 minutes it adds ' +
          '(0.5 at 10 minutes, 0.25 at 20), three decimals.',
      }),
  })
  .meta({
    id: 'AppointmentSlot',
    description: 'A window in which the case can start without breaking anything already planned.',
  });

export const AppointmentSlotListSchema = z
  .object({
    items: z.array(AppointmentSlotSchema).meta({
      description: 'Best first: least added driving, then earliest; [] when nothing fits. Not paginated.',
    }),
  })
  .meta({ id: 'AppointmentSlotList', description: 'The slots in which a case can be booked.' });

export type AppointmentSlot = z.infer<typeof AppointmentSlotSchema>;
