/** Storage of skill definitions; their short keys are guard items of their own (keys.ts). */
import { resourceStore } from '../../data/resource-store.ts';
import { skillList } from './skill.list.ts';
import type { Skill } from './skill.schema.ts';

export const skillStore = resourceStore<Skill>('skill', 'SKILL', skillList);
