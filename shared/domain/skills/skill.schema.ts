/**
 * Skill definition: a capability users can offer (a certification, a trade, a language).
 * Users reference definitions by id; their `skills` show each as a skill offering. Everyone
 * who works in the workspace reads them; writing them needs `skills:update`.
 * Published schema names: Skill, CreateSkill, UpdateSkill, SkillList.
 */
import * as z from 'zod';
import { lockVersion, storedVersion, text } from '../../schema/fields.ts';
import { pagedListSchema } from '../../schema/list.ts';
import { paginationQuery, sortParam } from '../../schema/query-params.ts';

export const SkillSchema = z
  .object({
    id: z.uuid().meta({ description: 'Identifier of the definition; users refer to it in `skill_ids`.' }),
    name: z.string().meta({ description: 'Display name; need not be unique in the workspace.' }),
    skill_type: z
      .string()
      .meta({ description: 'Free classification, e.g. CERTIFICATION or LANGUAGE; GENERAL unless given.' }),
    short_key: z.string().meta({
      description:
        'Short label for compact displays; unique in the workspace, compared regardless of letter case.',
    }),
    description: z.string().optional().meta({ description: 'Free text; omitted when the skill has none.' }),
    created_at: z.iso.datetime().meta({ description: 'When the definition was created.' }),
    updated_at: z.iso.datetime().meta({ description: 'When the definition was last changed.' }),
    lock_version: storedVersion().meta({ description: 'Starts at 0 and increments with every change.' }),
  })
  .meta({
    id: 'Skill',
    description:
      'A skill definition. Users offer skills by id (skill_ids); deleting a definition removes it from ' +
      'the skills every user shows.',
  });

export type Skill = z.infer<typeof SkillSchema>;

export const CreateSkillSchema = z
  .object({
    name: text({ max: 255 }).meta({ description: 'Display name; need not be unique in the workspace.' }),
    skill_type: text({ max: 64 }).optional().meta({ description: 'Default GENERAL.' }),
    short_key: text({ max: 16 })
      .optional()
      .meta({
        description:
          'Default: the initials of the words of the name, upper case, letters and digits only, at most ' +
          '16 (`Electrical Safety Check` → `ESC`); when another skill already uses that key a number is ' +
          'appended (`ESC2`). A short_key sent here that another skill of the workspace uses, in any ' +
          'letter case, is answered with 409 resource-conflict pointing at `#/short_key`.',
      }),
    description: text({ max: 2048 }).optional().meta({ description: 'Free text; none when omitted.' }),
  })
  .meta({ id: 'CreateSkill' });

export const UpdateSkillSchema = z
  .object({
    name: text({ max: 255 })
      .optional()
      .meta({ description: 'Display name; cannot be cleared. Does not change short_key.' }),
    skill_type: text({ max: 64 }).optional().meta({ description: 'Free classification; cannot be cleared.' }),
    short_key: text({ max: 16 })
      .optional()
      .meta({
        description:
          'Unique in the workspace regardless of letter case (409 resource-conflict pointing at ' +
          '`#/short_key` when another skill uses it). Not re-derived when the name changes.',
      }),
    description: text({ max: 2048 })
      .nullable()
      .optional()
      .meta({ description: 'Free text; null clears it.' }),
    lock_version: lockVersion(),
  })
  .meta({
    id: 'UpdateSkill',
    description:
      'JSON Merge Patch of a skill; description is clearable with null; null or blank name, ' +
      'skill_type or short_key is rejected with 422.',
  });

export const skillSortFields = ['name', 'skill_type', 'short_key', 'created_at', 'updated_at', 'id'] as const;

export const SkillListQuery = z.object({ ...paginationQuery, sort: sortParam(skillSortFields) });

export const SkillIdParams = z.object({ skill_id: z.uuid() });

export const SkillListSchema = pagedListSchema(SkillSchema, 'SkillList');
