/** The day board's query (GET /api/v2/scheduling/board.svg). */
import * as z from 'zod';
import { nonBlank } from '../../schema/fields.ts';
import { isCalendarDate } from '../tours/tour.schema.ts';

export const DayBoardQuery = z.object({
  date: nonBlank((ctx) => {
    if (!isCalendarDate(ctx.value)) {
      ctx.issues.push({ code: 'custom', input: ctx.value, message: 'must be a date YYYY-MM-DD' });
    }
  }).meta({ format: 'date', description: 'The UTC day to draw (YYYY-MM-DD).' }),
});
