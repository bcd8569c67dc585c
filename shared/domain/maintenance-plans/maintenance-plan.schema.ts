/**
 * Maintenance plan: recurring work. A case template (what each generated case is), an RFC 5545
 * recurrence in an IANA time zone, how far ahead cases are generated (horizon), an optional end,
 * and whether generation runs (status). The service keeps one case per occurrence of the horizon
 * (plan-generator.ts). Published schema names: MaintenancePlan, CreateMaintenancePlan,
 * UpdateMaintenancePlan, MaintenancePlanList, MaintenanceCaseTemplate.
 * Field shapes of the template are those of the case (case.schema.ts).
 */
import * as z from 'zod';
import { isoDuration } from '../../schema/duration.ts';
import { dateTime, lockVersion, storedVersion, text } from '../../schema/fields.ts';
import { pagedListSchema } from '../../schema/list.ts';
import { paginationQuery, sortParam } from '../../schema/query-params.ts';
import { CaseLocationSchema, CaseSchema, caseDurationBounds, casePriorities } from '../cases/case.schema.ts';
import { isTimeZone, parseRule, parseWallTime } from './occurrences.ts';

export const planStatuses = ['ACTIVE', 'PAUSED'] as const;
export type PlanStatus = (typeof planStatuses)[number];

export const defaultHorizon = 'P30D';
/** A year ahead at most: further is guessing, and a daily rule would already make 366 cases. */
export const horizonBounds = { minSeconds: 86_400, maxSeconds: 366 * 86_400 };
export const maxTemplateSkills = 20;

const statusDescription =
  'ACTIVE: the service keeps the cases of the horizon generated. PAUSED: nothing is generated; cases ' +
  'generated before stay as they are.';

const rruleDescription =
  'RFC 5545 recurrence rule, the value of an RRULE without `RRULE:` (e.g. `FREQ=WEEKLY;BYDAY=MO,TH`, ' +
  '`FREQ=MONTHLY;BYMONTHDAY=31`, `FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29`); COUNT counts from dtstart; an UNTIL ' +
  'ending in Z is an instant, one without is a wall time of `timezone`. FREQ must be HOURLY, DAILY, WEEKLY, ' +
  'MONTHLY or YEARLY; an invalid rule is 422 at `#/rrule`.';

const dtstartDescription =
  'The first occurrence as a wall time of `timezone`, `YYYY-MM-DDTHH:mm:ss` without offset (RFC 5545 ' +
  'DTSTART;TZID=…). Every occurrence keeps its wall time across daylight-saving changes; a wall time a change ' +
  'skips is moved forward by the gap, a repeated one is its first instant.';

const template = z
  .object({
    title: z.string().meta({ description: 'Title of each generated case.' }),
    description: z.string().optional().meta({ description: 'Description of each generated case.' }),
    priority: z.enum(casePriorities).meta({ description: 'Priority of each generated case.' }),
    duration: CaseSchema.shape.duration,
    required_skill_ids: CaseSchema.shape.required_skill_ids,
    area_id: CaseSchema.shape.area_id,
    location: CaseLocationSchema.optional(),
  })
  .meta({
    id: 'MaintenanceCaseTemplate',
    description: 'What each generated case is: its fields are copied into every case of the plan.',
  });

export type CaseTemplate = z.infer<typeof template>;

export const MaintenancePlanSchema = z
  .object({
    id: z
      .uuid()
      .meta({ description: 'Identifier of the plan; generated cases name it in maintenance_plan_id.' }),
    name: z.string().meta({ description: 'Display name, e.g. `Boiler service, Hauptstraße 5`.' }),
    status: z.enum(planStatuses).meta({ description: statusDescription }),
    case_template: template,
    rrule: z.string().meta({ description: rruleDescription }),
    dtstart: z.string().meta({ description: dtstartDescription, example: '2026-03-02T09:00:00' }),
    timezone: z
      .string()
      .meta({ description: 'IANA time zone of dtstart and the rule, e.g. `Europe/Berlin`.' }),
    horizon: z.string().meta({
      format: 'duration',
      example: defaultHorizon,
      description: 'How far ahead of now cases are generated (ISO 8601 days, P1D..P366D).',
    }),
    end: z.iso.datetime().optional().meta({
      description: 'No occurrence at or after this instant; omitted when the plan runs until its rule ends.',
    }),
    created_at: z.iso.datetime().meta({ description: 'When the plan was created.' }),
    updated_at: z.iso.datetime().meta({ description: 'When the plan was last edited.' }),
    lock_version: storedVersion().meta({ description: 'Starts at 0 and increments with every edit.' }),
  })
  .meta({ id: 'MaintenancePlan', description: 'Recurring work that generates one case per occurrence.' });

export type MaintenancePlan = z.infer<typeof MaintenancePlanSchema>;

const rrule = () =>
  text({ max: 1000 }).check((ctx) => {
    if (!ctx.value.trim()) return;
    const parsed = parseRule(ctx.value);
    if ('error' in parsed) ctx.issues.push({ code: 'custom', input: ctx.value, message: parsed.error });
  });

const dtstart = () =>
  text({ max: 19 }).check((ctx) => {
    if (ctx.value.trim() && parseWallTime(ctx.value) === undefined) {
      ctx.issues.push({
        code: 'custom',
        input: ctx.value,
        message: 'must be a wall time YYYY-MM-DDTHH:mm:ss without offset (the zone is `timezone`)',
      });
    }
  });

const timezone = () =>
  text({ max: 64 }).check((ctx) => {
    if (ctx.value.trim() && !isTimeZone(ctx.value)) {
      ctx.issues.push({
        code: 'custom',
        input: ctx.value,
        message: 'must be an IANA time zone, e.g. Europe/Berlin',
      });
    }
  });

const horizon = () => isoDuration({ ...horizonBounds, example: defaultHorizon });

/** A reference to another record of the workspace, stored lower-cased (as a case's). */
const reference = () => z.uuid().transform((id) => id.toLowerCase());

const skillIds = () =>
  z
    .array(reference())
    .max(maxTemplateSkills)
    .check((ctx) => {
      const seen = new Set<string>();
      ctx.value.forEach((id, index) => {
        if (seen.has(id))
          ctx.issues.push({ code: 'custom', input: id, path: [index], message: 'is already in the list' });
        seen.add(id);
      });
    })
    .meta({ description: `Up to ${maxTemplateSkills} skill definitions of the workspace, each once.` });

const caseDuration = () => isoDuration({ ...caseDurationBounds, example: 'PT45M' });

const createTemplate = z
  .object({
    title: text({ max: 255 }).meta({ description: 'Required, 1..255 characters.' }),
    description: text({ max: 10_000 }).optional().meta({ description: 'Up to 10,000 characters.' }),
    priority: z.enum(casePriorities).default('NORMAL').meta({ description: 'Default NORMAL.' }),
    duration: caseDuration()
      .optional()
      .meta({ description: 'On-site work, ISO 8601, PT1M..P1D; default PT1H.' }),
    required_skill_ids: skillIds().optional(),
    area_id: reference().optional().meta({ description: 'An area of the workspace (422 otherwise).' }),
    location: CaseLocationSchema.optional(),
  })
  .meta({ description: 'The case each occurrence generates.' });

const patchTemplate = z
  .object({
    title: text({ max: 255 }).optional().meta({ description: '1..255 characters; null is 422.' }),
    description: text({ max: 10_000 }).nullable().optional().meta({ description: 'null clears it.' }),
    priority: z.enum(casePriorities).optional().meta({ description: 'null is 422.' }),
    duration: caseDuration().optional().meta({ description: 'PT1M..P1D; null is 422.' }),
    required_skill_ids: skillIds()
      .nullable()
      .optional()
      .meta({ description: 'Replaces the list; null clears it.' }),
    area_id: reference().nullable().optional().meta({ description: 'null clears it.' }),
    location: CaseLocationSchema.nullable()
      .optional()
      .meta({ description: 'Replaces it whole; null clears it.' }),
  })
  .meta({ description: 'Merged into the stored template (RFC 7386): send only what changes.' });

export const CreateMaintenancePlanSchema = z
  .object({
    name: text({ max: 255 }).meta({ description: 'Required, 1..255 characters.' }),
    status: z
      .enum(planStatuses)
      .default('ACTIVE')
      .meta({ description: `${statusDescription} Default ACTIVE.` }),
    case_template: createTemplate,
    rrule: rrule().meta({ description: rruleDescription }),
    dtstart: dtstart().meta({ description: dtstartDescription }),
    timezone: timezone().meta({ description: 'IANA time zone, e.g. `Europe/Berlin` (422 otherwise).' }),
    horizon: horizon()
      .optional()
      .meta({ description: `How far ahead cases are generated, P1D..P366D; default ${defaultHorizon}.` }),
    end: dateTime().optional().meta({ description: 'No occurrence at or after this instant.' }),
  })
  .meta({ id: 'CreateMaintenancePlan', description: 'A new maintenance plan. Unknown keys are ignored.' });

export const UpdateMaintenancePlanSchema = z
  .object({
    name: text({ max: 255 }).optional().meta({ description: '1..255 characters; null is 422.' }),
    status: z
      .enum(planStatuses)
      .optional()
      .meta({ description: `${statusDescription} null is 422.` }),
    case_template: patchTemplate.optional(),
    rrule: rrule()
      .optional()
      .meta({ description: `${rruleDescription} null is 422.` }),
    dtstart: dtstart()
      .optional()
      .meta({ description: `${dtstartDescription} null is 422.` }),
    timezone: timezone().optional().meta({ description: 'IANA time zone; null is 422.' }),
    horizon: horizon().optional().meta({ description: 'P1D..P366D; null is 422.' }),
    end: dateTime().nullable().optional().meta({ description: 'null: the plan runs until its rule ends.' }),
    lock_version: lockVersion(),
  })
  .meta({
    id: 'UpdateMaintenancePlan',
    description:
      'JSON Merge Patch of a maintenance plan; case_template merges field by field. Future NEW generated cases ' +
      'are brought in line with the result; other cases stay as they are.',
  });

export type CreateMaintenancePlan = z.output<typeof CreateMaintenancePlanSchema>;
export type UpdateMaintenancePlan = z.output<typeof UpdateMaintenancePlanSchema>;

export const maintenancePlanSortFields = ['name', 'created_at', 'updated_at'] as const;

export const MaintenancePlanListQuery = z.object({
  ...paginationQuery,
  sort: sortParam(maintenancePlanSortFields),
  status: z.enum(planStatuses).optional().meta({ description: 'Only plans of this status. Default: both.' }),
});

export const MaintenancePlanIdParams = z.object({
  maintenance_plan_id: z.uuid().meta({ description: 'Identifier of the maintenance plan.' }),
});

export const MaintenancePlanListSchema = pagedListSchema(MaintenancePlanSchema, 'MaintenancePlanList');
