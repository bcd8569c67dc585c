/** How skill definitions are listed (README.md, "Lists", SKILL). */
import type { ListSpec } from '../../data/list-index.ts';
import { byChange, byCreation, byId, collectionOf, text } from '../../data/list-patterns.ts';
import type { Skill } from './skill.schema.ts';

export const skillList: ListSpec<Skill> = {
  name: 'SKILL',
  listed: () => true,
  orders: {
    name: { pattern: 'byName', index: 'gsi1', key: text('name') },
    skill_type: { pattern: 'bySkillType', index: 'gsi2', key: text('skill_type') },
    short_key: { pattern: 'byShortKey', index: 'gsi3', key: text('short_key') },
    created_at: byCreation(),
    updated_at: byChange(),
    id: byId(),
  },
  basePartition: collectionOf('SKILL'),
};
