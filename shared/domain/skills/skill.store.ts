/**
 * Storage of skill definitions, and the guard items that keep short_keys unique per workspace
 * regardless of letter case (keys.ts `skillShortKey`): one per key identity, naming its skill,
 * created in the skill's own transaction so two containers claiming one key cannot both win.
 */
import { keys } from '../../data/keys.ts';
import { resourceStore, type StoreScope } from '../../data/resource-store.ts';
import type { TableWrite } from '../../data/table.ts';
import { skillList } from './skill.list.ts';
import type { Skill } from './skill.schema.ts';

export const skillStore = resourceStore<Skill>('skill', 'SKILL', skillList);

/** One workspace's short_key guards, by key identity (short-key.ts `shortKeyIdentity`). */
export interface WorkspaceSkillShortKeys {
  /** Part of a skill's write: takes the key; a taken one fails it with DataError already-exists. */
  claim(identity: string, skillId: string): TableWrite;
  /** Part of a skill's write: frees the key. */
  release(identity: string): TableWrite;
}

export const skillShortKeyStore = {
  of(scope: StoreScope): WorkspaceSkillShortKeys {
    const workspaceId = typeof scope === 'string' ? scope : scope.workspaceId;
    const key = (identity: string) => keys.skillShortKey(workspaceId, identity);
    return {
      claim: (identity, skillId) => ({
        kind: 'create',
        key: key(identity),
        entity: 'skill-short-key',
        record: { skill_id: skillId },
      }),
      release: (identity) => ({ kind: 'discard', key: key(identity) }),
    };
  },
};
