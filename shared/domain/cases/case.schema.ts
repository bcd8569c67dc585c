/**
 * Case: a work order of the workspace: what is to be done (title, description), where
 * (address, location, area), by whom (assignee), when (scheduled window), how urgent
 * (priority) and how far it got (status), with the ERP/CRM reference it came from
 * (external_id). Published schema names: Case, CreateCase, UpdateCase, CaseList, CaseAddress,
 * CaseLocation.
 */
import * as z from 'zod';
import { isoDuration } from '../../schema/duration.ts';
import {
  dateTime,
  latitude,
  lockVersion,
  longitude,
  storedVersion,
  systemManaged,
  text,
} from '../../schema/fields.ts';
import { pagedListSchema } from '../../schema/list.ts';
import { paginationQuery, sortParam } from '../../schema/query-params.ts';
import { casePriorities, caseStatuses, scheduleLocks } from './case-enums.ts';
import { atRiskLeadMs, slaStatuses } from './case-service-level.ts';
import { countryCode, storedCountryCode } from './country-code.ts';

export {
  type CasePriority,
  type CaseStatus,
  casePriorities,
  caseStatuses,
  type ScheduleLock,
  scheduleLocks,
} from './case-enums.ts';
export { type SlaStatus, slaStatuses } from './case-service-level.ts';

const statusDescription =
  'Where the work stands: NEW (not planned yet), SCHEDULED (planned), IN_PROGRESS (being worked ' +
  'on), ON_HOLD (waiting, e.g. for parts or the customer), DONE (completed), CANCELLED (will not ' +
  'be done). Set by the caller; any status may follow any other.';
const priorityDescription = 'How urgent the work is: LOW, NORMAL, HIGH or URGENT.';
const lockDescription =
  'What planning keeps of the case, as a dispatcher pins work: NONE (optimization runs may move it ' +
  'freely), ASSIGNEE (only shifts of its assignee_id), TIME (its stop starts exactly at its ' +
  'scheduled_start), ASSIGNEE_AND_TIME (both). A run keeps every lock or leaves the case out with reason ' +
  'LOCK_NOT_KEPT; applying a plan never moves a locked case off its technician or time and never returns it ' +
  'to NEW. ASSIGNEE needs an assignee_id and TIME a scheduled_start (422 at `#/schedule_lock` otherwise); ' +
  'editing a case by hand is not planning: a PATCH may change what a lock keeps.';

const atRiskHours = atRiskLeadMs / 3_600_000;
const dueByDescription =
  'The latest acceptable end of the work (RFC 3339 date-time, answered in UTC): the service level ' +
  'committed to the customer. While the case is unfinished (not DONE or CANCELLED) its passing makes the ' +
  'case BREACHED within a minute (sla_status, a case.updated of actor SYSTEM).';
const slaDescription =
  'The service level, kept by the service; absent exactly when due_by is. An unfinished case (not DONE or ' +
  `CANCELLED) is BREACHED from due_by on, AT_RISK from ${atRiskHours} hours before due_by or while its ` +
  'scheduled_end lies after due_by, ON_TRACK otherwise; each change by time alone is made within a minute of ' +
  'its moment and emits case.updated (actor SYSTEM). A finished case keeps what the write that finished it ' +
  'found: BREACHED when due_by had passed, else ON_TRACK (met). Filter with `sla_status`.';

const limits = { title: 255, description: 10_000, externalId: 255, street: 255, postalCode: 32, city: 255 };

/** On-site work unless another duration is set. */
export const defaultCaseDuration = 'PT1H';
/** Bounds of a case's duration: a minute to a day (a shift lasts a day at most). */
export const caseDurationBounds = { minSeconds: 60, maxSeconds: 86_400 };
export const maxRequiredSkills = 20;
export const maxTimeWindows = 20;

export const CaseAddressSchema = z
  .object({
    street: z.string().optional().meta({ description: 'Street and house number.' }),
    postal_code: z.string().optional().meta({ description: 'Postal code.' }),
    city: z.string().optional().meta({ description: 'City or locality.' }),
    country: storedCountryCode().optional(),
  })
  .meta({
    id: 'CaseAddress',
    description: 'Where the work is done; lines without a value are omitted.',
  });

export const CaseLocationSchema = z
  .object({
    latitude: latitude(),
    longitude: longitude(),
  })
  .meta({ id: 'CaseLocation', description: 'Coordinates of the place of work (WGS 84).' });

export const CaseTimeWindowSchema = z
  .object({
    start: z.iso.datetime().meta({ description: 'The work may start from this instant (UTC).' }),
    end: z.iso.datetime().meta({ description: 'The work must start by this instant (UTC).' }),
  })
  .meta({ id: 'CaseTimeWindow', description: 'A time in which the work may start.' });

export type CaseAddress = z.infer<typeof CaseAddressSchema>;
export type CaseLocation = z.infer<typeof CaseLocationSchema>;

export const CaseSchema = z
  .object({
    id: z.uuid().meta({ description: 'Stable id of the case (UUIDv7: ids sort in creation order).' }),
    title: z.string().meta({ description: 'What is to be done, in one line.' }),
    description: z.string().optional().meta({ description: 'Details of the work; omitted when empty.' }),
    status: z.enum(caseStatuses).meta({ description: statusDescription }),
    priority: z.enum(casePriorities).meta({ description: priorityDescription }),
    external_id: z
      .string()
      .optional()
      .meta({ description: 'Reference of the case in an ERP or CRM system; omitted when absent.' }),
    area_id: z
      .uuid()
      .optional()
      .meta({ description: 'The area the case belongs to (GET /api/v2/areas/{area_id}).' }),
    assignee_id: z.uuid().optional().meta({
      description: 'The user who does the work (GET /api/v2/users/{user_id}); omitted when unassigned.',
    }),
    scheduled_start: z.iso
      .datetime()
      .optional()
      .meta({ description: 'Start of the planned window (UTC); present exactly when scheduled_end is.' }),
    scheduled_end: z.iso
      .datetime()
      .optional()
      .meta({ description: 'End of the planned window (UTC), after scheduled_start.' }),
    address: CaseAddressSchema.optional(),
    location: CaseLocationSchema.optional(),
    duration: z.string().meta({
      format: 'duration',
      example: 'PT1H30M',
      description:
        `How long the work on site takes (ISO 8601, shortest form); ${defaultCaseDuration} unless another was ` +
        'set. Always present.',
    }),
    required_skill_ids: z.array(z.uuid()).optional().meta({
      description:
        'Skill definitions (GET /api/v2/skills/{skill_id}) the technician must all offer; omitted when none.',
    }),
    time_windows: z
      .array(CaseTimeWindowSchema)
      .optional()
      .meta({
        description:
          'When the work may start, ordered by start and not overlapping; omitted when none (any time of a shift). ' +
          'A booked appointment (POST /api/v2/cases/{case_id}/book) sets it to the window promised to the customer.',
      }),
    schedule_lock: z.enum(scheduleLocks).meta({ description: `${lockDescription} Always present.` }),
    due_by: z.iso
      .datetime()
      .optional()
      .meta({ description: `${dueByDescription} Omitted when none.`, example: '2026-03-04T14:00:00.000Z' }),
    sla_status: z.enum(slaStatuses).optional().meta({ description: slaDescription, example: 'ON_TRACK' }),
    maintenance_plan_id: z
      .uuid()
      .optional()
      .meta({
        description:
          'The maintenance plan that generated the case (GET /api/v2/maintenance-plans/{maintenance_plan_id}); ' +
          'omitted for cases created otherwise. Read only; it stays when the plan is deleted.',
      }),
    occurrence: z.iso
      .datetime()
      .optional()
      .meta({
        description:
          "The occurrence of the plan's recurrence the case was generated for (UTC); present exactly when " +
          'maintenance_plan_id is. Read only: one case per occurrence.',
      }),
    created_at: z.iso.datetime().meta({ description: 'When the case was created.' }),
    updated_at: z.iso.datetime().meta({ description: 'When the case was last written.' }),
    lock_version: storedVersion().meta({ description: 'Starts at 0 and increments with every change.' }),
  })
  .meta({ id: 'Case' });

/**
 * A case as stored and published. `duration` is optional here because cases written before it
 * existed lack it: read them through `withPlanningDefaults` (case-planning.ts), which every answer
 * and event does, so the published case always carries it.
 */
export type Case = Omit<z.infer<typeof CaseSchema>, 'duration' | 'schedule_lock'> & {
  duration?: string;
  schedule_lock?: z.infer<typeof CaseSchema>['schedule_lock'];
};

/** A reference to another record of the workspace, stored lower-cased. */
const reference = () => z.uuid().transform((id) => id.toLowerCase());

const title = () => text({ max: limits.title });
const description = () => text({ max: limits.description });
const externalId = () => text({ max: limits.externalId });

const caseDuration = () => isoDuration({ ...caseDurationBounds, example: 'PT45M' });

/** Skill definitions of the workspace (checked by the service), each once. */
const requiredSkillIds = () =>
  z
    .array(reference())
    .max(maxRequiredSkills)
    .check((ctx) => {
      const seen = new Set<string>();
      ctx.value.forEach((id, index) => {
        if (seen.has(id)) {
          ctx.issues.push({ code: 'custom', input: id, path: [index], message: 'is already in the list' });
        }
        seen.add(id);
      });
    })
    .meta({
      description:
        `Up to ${maxRequiredSkills} skill definitions of the workspace, each once; a technician must offer all. ` +
        'An unknown id is 422 at `#/required_skill_ids/<index>`.',
    });

const timeWindow = z.object({
  start: dateTime().meta({ description: 'The work may start from this instant.' }),
  end: dateTime().meta({ description: 'The work must start by this instant; after start.' }),
});

/** Windows each start before their end, ordered by start, none overlapping the one before. */
const timeWindows = () =>
  z
    .array(timeWindow)
    .max(maxTimeWindows)
    .check((ctx) => {
      ctx.value.forEach((window, index) => {
        if (window.end <= window.start) {
          ctx.issues.push({
            code: 'custom',
            input: window.end,
            path: [index, 'end'],
            message: 'must be after start',
          });
        }
        const before = ctx.value[index - 1];
        if (before && window.start < before.end) {
          ctx.issues.push({
            code: 'custom',
            input: window.start,
            path: [index, 'start'],
            message:
              'must not be before the end of the window before it (windows are ordered and do not overlap)',
          });
        }
      });
    })
    .meta({
      description:
        `Up to ${maxTimeWindows} windows in which the work may start, ordered by start, not overlapping (one may ` +
        'start where the one before ends); each start before its end (422 at `#/time_windows/<index>/end` or ' +
        '`…/start`). None: any time of a shift.',
    });

const createAddress = z
  .object({
    street: text({ max: limits.street }).optional().meta({ description: 'Street and house number.' }),
    postal_code: text({ max: limits.postalCode }).optional().meta({ description: 'Postal code.' }),
    city: text({ max: limits.city }).optional().meta({ description: 'City or locality.' }),
    country: countryCode().optional(),
  })
  .meta({ description: 'Every line is optional; an address without lines is no address.' });

const patchAddress = z
  .object({
    street: text({ max: limits.street }).nullable().optional().meta({ description: 'null clears it.' }),
    postal_code: text({ max: limits.postalCode })
      .nullable()
      .optional()
      .meta({ description: 'null clears it.' }),
    city: text({ max: limits.city }).nullable().optional().meta({ description: 'null clears it.' }),
    country: countryCode().nullable().optional().meta({ description: 'null clears it.' }),
  })
  .meta({
    description:
      'Merged into the stored address (RFC 7386): send only the lines that change, null clears a line.',
  });

const patchLocation = z
  .object({
    latitude: CaseLocationSchema.shape.latitude.optional(),
    longitude: CaseLocationSchema.shape.longitude.optional(),
  })
  .meta({
    description:
      'Merged into the stored location (RFC 7386); the result must hold both coordinates. null for the whole location clears it.',
  });

export const CreateCaseSchema = z
  .object({
    title: title().meta({ description: 'Required, 1..255 characters.' }),
    description: description().optional().meta({ description: 'Up to 10,000 characters.' }),
    status: z
      .enum(caseStatuses)
      .default('NEW')
      .meta({ description: `${statusDescription} Default NEW.` }),
    priority: z
      .enum(casePriorities)
      .default('NORMAL')
      .meta({ description: `${priorityDescription} Default NORMAL.` }),
    external_id: externalId()
      .optional()
      .meta({ description: 'Reference of the case in an ERP or CRM system, up to 255 characters.' }),
    area_id: reference().optional().meta({ description: 'An area of the workspace (422 otherwise).' }),
    assignee_id: reference().optional().meta({
      description:
        'A user of the workspace who is not deactivated (422 otherwise; service accounts are not users).',
    }),
    scheduled_start: dateTime()
      .optional()
      .meta({ description: 'Start of the planned window; required with scheduled_end.' }),
    scheduled_end: dateTime()
      .optional()
      .meta({ description: 'End of the planned window; after scheduled_start, required with it.' }),
    address: createAddress.optional(),
    location: CaseLocationSchema.optional(),
    duration: caseDuration()
      .optional()
      .meta({
        description: `On-site work, ISO 8601, PT1M..P1D (e.g. \`PT45M\`); default ${defaultCaseDuration}.`,
      }),
    required_skill_ids: requiredSkillIds().optional(),
    time_windows: timeWindows().optional(),
    schedule_lock: z
      .enum(scheduleLocks)
      .optional()
      .meta({ description: `${lockDescription} Default NONE.` }),
    due_by: dateTime()
      .optional()
      .meta({
        description: `${dueByDescription} Optional; any instant, a past one makes the case BREACHED at once.`,
      }),
    sla_status: systemManaged('Derived from due_by, status, scheduled_end and the time.'),
  })
  .meta({ id: 'CreateCase', description: 'A new case. Unknown keys are ignored.' });

export const UpdateCaseSchema = z
  .object({
    title: title().optional().meta({ description: '1..255 characters; null or blank is 422.' }),
    description: description().nullable().optional().meta({ description: 'null clears it.' }),
    status: z
      .enum(caseStatuses)
      .optional()
      .meta({ description: `${statusDescription} null is 422.` }),
    priority: z
      .enum(casePriorities)
      .optional()
      .meta({ description: `${priorityDescription} null is 422.` }),
    external_id: externalId().nullable().optional().meta({ description: 'null clears it.' }),
    area_id: reference()
      .nullable()
      .optional()
      .meta({ description: 'An area of the workspace; null clears it.' }),
    assignee_id: reference()
      .nullable()
      .optional()
      .meta({ description: 'A user of the workspace who is not deactivated; null unassigns the case.' }),
    scheduled_start: dateTime()
      .nullable()
      .optional()
      .meta({ description: 'null clears it (clear scheduled_end with it).' }),
    scheduled_end: dateTime()
      .nullable()
      .optional()
      .meta({ description: 'null clears it (clear scheduled_start with it).' }),
    address: patchAddress.nullable().optional(),
    location: patchLocation.nullable().optional(),
    duration: caseDuration()
      .optional()
      .meta({
        description: `On-site work, ISO 8601, PT1M..P1D; null is 422 (send ${defaultCaseDuration} for the default).`,
      }),
    required_skill_ids: requiredSkillIds()
      .nullable()
      .optional()
      .meta({ description: 'Replaces the whole list; null or [] clears it.' }),
    time_windows: timeWindows()
      .nullable()
      .optional()
      .meta({ description: 'Replaces the whole list; null or [] clears it.' }),
    schedule_lock: z
      .enum(scheduleLocks)
      .optional()
      .meta({ description: `${lockDescription} null is 422 (send NONE to unlock).` }),
    due_by: dateTime()
      .nullable()
      .optional()
      .meta({ description: 'The latest acceptable end; null clears it (and with it sla_status).' }),
    sla_status: systemManaged('Derived from due_by, status, scheduled_end and the time.'),
    lock_version: lockVersion(),
  })
  .meta({
    id: 'UpdateCase',
    description:
      'JSON Merge Patch of a case. The scheduled window is checked on the result: start before end, both or neither. Unknown keys are ignored.',
  });

export type CreateCase = z.output<typeof CreateCaseSchema>;
export type UpdateCase = z.output<typeof UpdateCaseSchema>;

export const caseSortFields = [
  'title',
  'status',
  'priority',
  'scheduled_start',
  'created_at',
  'updated_at',
] as const;

export const CaseListQuery = z.object({
  ...paginationQuery,
  sort: sortParam(caseSortFields).meta({
    description:
      'Repeated `sort=<field>:<asc|desc>`. Fields: title (case and accents ignored, numbers by value), ' +
      'status (in lifecycle order NEW, SCHEDULED, IN_PROGRESS, ON_HOLD, DONE, CANCELLED), priority ' +
      '(LOW, NORMAL, HIGH, URGENT), scheduled_start (cases without a window come after every scheduled ' +
      'one: last ascending, first descending), created_at, updated_at. Default created_at:desc (newest ' +
      'first). Further keys order the ties of the first; remaining ties by id in the direction of the first.',
  }),
  statuses: z.array(z.enum(caseStatuses)).optional().meta({
    description:
      'Repeated (`statuses=NEW&statuses=SCHEDULED`): cases in any of these statuses. Default: every status.',
  }),
  area_id: reference().optional().meta({ description: 'Only cases of this area.' }),
  assignee_id: reference().optional().meta({ description: 'Only cases assigned to this user.' }),
  scheduled_from: dateTime()
    .optional()
    .meta({
      description:
        'With scheduled_to (either may be left out): only cases whose scheduled window overlaps ' +
        '[scheduled_from, scheduled_to), i.e. scheduled_end > scheduled_from and scheduled_start < ' +
        'scheduled_to. A window that ends exactly at scheduled_from or starts exactly at scheduled_to ' +
        'does not overlap; cases without a window never match.',
    }),
  scheduled_to: dateTime()
    .optional()
    .meta({ description: 'Exclusive end of the window scheduled_from describes.' }),
  sla_status: z
    .enum(slaStatuses)
    .optional()
    .meta({
      description:
        'Only cases with this sla_status (cases without due_by have none and never match). Combine with ' +
        'statuses, e.g. the open ones, for the work still to save.',
    }),
  updated_from: dateTime().optional().meta({ description: 'Inclusive lower bound of updated_at.' }),
  updated_to: dateTime().optional().meta({ description: 'Exclusive upper bound of updated_at.' }),
});

export type CaseListQueryInput = z.output<typeof CaseListQuery>;

export const CaseIdParams = z.object({
  case_id: z.uuid().meta({ description: 'Id of a case of the workspace.' }),
});

export const CaseListSchema = pagedListSchema(CaseSchema, 'CaseList');
