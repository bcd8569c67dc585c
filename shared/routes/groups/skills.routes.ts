/** Routes of the `skills` operation group (one Lambda); part of the route table. */
import {
  CreateSkillSchema,
  SkillIdParams,
  SkillListQuery,
  SkillListSchema,
  SkillSchema,
  UpdateSkillSchema,
} from '../../domain/skills/skill.schema.ts';
import type { RouteSpec } from '../../http/route-spec.ts';
import { crudRoutes } from '../crud-routes.ts';

/**
 * Every role reads skill definitions (technicians and drivers see what they offer);
 * creating, editing and deleting them needs skills:update (owner, admin).
 */
export const skillRoutes = crudRoutes({
  group: 'skills',
  collection: '/api/v2/skills',
  idParam: 'skill_id',
  singular: 'skill definition',
  plural: 'skill definitions',
  tag: 'Skills',
  readGrants: ['skills:read'],
  writeGrants: ['skills:update'],
  createErrors: [409],
  schemas: {
    listQuery: SkillListQuery,
    idParams: SkillIdParams,
    item: SkillSchema,
    list: SkillListSchema,
    create: CreateSkillSchema,
    update: UpdateSkillSchema,
  },
  docs: {
    about:
      'A skill definition is a capability people of the workspace can offer: a certification, a trade, a ' +
      'language. Users refer to definitions by id (`skill_ids`) and show each one in their `skills` as a ' +
      'skill offering with its current `name`, `skill_type` and `short_key`.',
    list:
      'Default order: `name` ascending, ignoring letter case and comparing numbers by value (`Level 2` ' +
      'before `Level 10`), ties by `id`.',
    create:
      '`name` is required; names need not be unique. `skill_type` defaults to `GENERAL`; `description` is ' +
      'optional and omitted from the answer when not given.\n\n' +
      'Without `short_key` the service derives one from the name: the initials of its words, upper case, ' +
      'letters and digits only, at most 16 characters (`Electrical Safety Check` → `ESC`; `SKILL` when the ' +
      'name has no letter or digit). When another skill of the workspace already uses that key in any ' +
      'letter case, the first free number is appended (`ESC2`, `ESC3`, …), so a derived key never ' +
      'conflicts. A `short_key` that is sent is stored as sent and must be free in the workspace regardless ' +
      'of letter case and surrounding blanks: otherwise 409 resource-conflict with an `errors[]` entry at ' +
      '`#/short_key`; its `data.skill_id` names the skill holding the key (absent only when a concurrent ' +
      'request claimed it an instant earlier). Other workspaces may use the same keys.\n\n' +
      'The new definition starts at lock_version 0; a skill.created event records it in the audit log.',
    update:
      '`description` is cleared with null; `name`, `skill_type` and `short_key` cannot be null or blank ' +
      '(422 field-required). Renaming does not re-derive `short_key`. A new `short_key` must be free in the ' +
      'workspace regardless of letter case (409 resource-conflict at `#/short_key`, naming the holder in ' +
      '`data.skill_id`); changing only the letter case of its own key is allowed, and a key given up ' +
      'is free for other skills at once. Users offering the skill show the new values on their next read. ' +
      'A skill.updated event records the previous values of the changed fields.',
    delete:
      'The definition disappears from the `skills` of every user who offered it (those users are not ' +
      'rewritten: their lock_version stays), and its `short_key` is free again. A skill.deleted event ' +
      'records it in the audit log.',
  },
  examples: {
    item: {
      id: '019cad9d-67a0-7bbf-8032-6d4ed680a8ef',
      name: 'Electrical Safety Check',
      skill_type: 'CERTIFICATION',
      short_key: 'ESC',
      description: 'Periodic inspection of fixed electrical installations, including the test report.',
      created_at: '2026-03-02T08:15:00.000Z',
      updated_at: '2026-05-20T13:10:05.000Z',
      lock_version: 2,
    },
    create: {
      name: 'Electrical Safety Check',
      skill_type: 'CERTIFICATION',
      description: 'Periodic inspection of fixed electrical installations, including the test report.',
    },
    update: { name: 'Electrical Safety Check', lock_version: 1 },
  },
}) satisfies readonly RouteSpec[];
