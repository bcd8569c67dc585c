/**
 * From the stored principal to the User of the API: role names stay, skill and tag ids are
 * resolved against the workspace's skill definitions and tags (ids of deleted ones are
 * dropped), and nothing secret exists on the principal to leak (secrets live on the
 * credential item).
 */
import { v5 as uuidv5 } from 'uuid';
import { isRoleName, type RoleName } from '../../auth/grants.ts';
import type { PrincipalRecord } from '../../data/directory.store.ts';
import type { Skill } from '../skills/skill.schema.ts';
import { skillStore } from '../skills/skill.store.ts';
import type { StoredTag } from '../tags/tag.schema.ts';
import { tagStore } from '../tags/tag.store.ts';
import type { SkillOffering, TagReference, User } from './user.schema.ts';

const offeringNamespace = '0c5e8d2a-7f41-4b9e-8d3c-6a2f1e9b5d47';

/** A user's offering of a skill has a stable id: the same user and skill give the same id. */
export function skillOfferingIdOf(userId: string, skillId: string): string {
  return uuidv5(`${userId}:${skillId}`, offeringNamespace);
}

/** The workspace's skill definitions and tags by id: what user representations refer to. */
export interface UserCatalogs {
  skills: ReadonlyMap<string, Skill>;
  tags: ReadonlyMap<string, StoredTag>;
}

/** One Query each for skills and tags: the whole catalogs, for setup work only. */
export async function loadCatalogs(workspaceId: string): Promise<UserCatalogs> {
  const [skills, tags] = await Promise.all([
    skillStore.of(workspaceId).list(),
    tagStore.of(workspaceId).list(),
  ]);
  return {
    skills: new Map(skills.map((skill) => [skill.id, skill])),
    tags: new Map(tags.map((tag) => [tag.id, tag])),
  };
}

/**
 * The skills and tags these principals refer to, and `more` ids a write names: one
 * BatchGetItem each (per 100 ids), never the whole catalog. Ids of deleted ones are absent.
 */
export async function catalogsFor(
  workspaceId: string,
  principals: readonly PrincipalRecord[],
  more: { skill_ids?: readonly string[] | null; tag_ids?: readonly string[] | null } = {},
): Promise<UserCatalogs> {
  const skillIds = [...new Set([...principals.flatMap((p) => p.skill_ids ?? []), ...(more.skill_ids ?? [])])];
  const tagIds = [...new Set([...principals.flatMap((p) => p.tag_ids ?? []), ...(more.tag_ids ?? [])])];
  const [skills, tags] = await Promise.all([
    skillStore.of(workspaceId).getMany(skillIds.map((id) => id.toLowerCase())),
    tagStore.of(workspaceId).getMany(tagIds.map((id) => id.toLowerCase())),
  ]);
  const present = <T extends { id: string }>(records: Array<unknown>) =>
    new Map((records.filter(Boolean) as T[]).map((record) => [record.id, record]));
  return { skills: present<Skill>(skills), tags: present<StoredTag>(tags) };
}

export function skillOfferingsOf(principal: PrincipalRecord, catalogs: UserCatalogs): SkillOffering[] {
  const offerings: SkillOffering[] = [];
  for (const skillId of principal.skill_ids ?? []) {
    const skill = catalogs.skills.get(skillId);
    if (!skill) continue;
    offerings.push({
      id: skillOfferingIdOf(principal.id, skill.id),
      name: skill.name,
      skill: skill.id,
      skill_type: skill.skill_type,
      short_key: skill.short_key,
    });
  }
  return offerings;
}

export function tagReferencesOf(principal: PrincipalRecord, catalogs: UserCatalogs): TagReference[] {
  const references: TagReference[] = [];
  for (const tagId of principal.tag_ids ?? []) {
    const tag = catalogs.tags.get(tagId);
    if (tag) references.push({ id: tag.id, name: tag.name, color: tag.color });
  }
  return references;
}

/** Ids that still name an existing skill or tag (what a write keeps of a stored set). */
export function existingIds(
  ids: readonly string[] | undefined,
  catalog: ReadonlyMap<string, unknown>,
): string[] {
  return (ids ?? []).filter((id) => catalog.has(id));
}

/**
 * The User (SPEC.md) of a principal. Service accounts, which have no e-mail or name, come out
 * without those keys (GET /api/v2/me is the only place they are shown).
 */
export function toUser(principal: PrincipalRecord, catalogs: UserCatalogs): User {
  const roles = principal.roles.filter(isRoleName) as RoleName[];
  const user: Record<string, unknown> = {
    id: principal.id,
    email: principal.email,
    phone_number: principal.phone_number,
    roles,
    skills: principal.kind === 'user' ? skillOfferingsOf(principal, catalogs) : [],
    firstname: principal.firstname,
    lastname: principal.lastname,
    created_at: principal.created_at,
    updated_at: principal.updated_at,
    status: principal.status,
    lock_version: principal.lock_version,
    can_resend_set_password_email:
      principal.kind === 'user' && principal.can_resend_set_password_email === true,
    tags: principal.kind === 'user' ? tagReferencesOf(principal, catalogs) : [],
  };
  // Absent values are omitted, never null (SPEC.md, Conventions).
  for (const key of Object.keys(user)) if (user[key] === undefined || user[key] === null) delete user[key];
  return user as User;
}
