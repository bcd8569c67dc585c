/**
 * Skill definition rules: creation with defaults (skill_type GENERAL, short_key from the name),
 * merge-patch edits (description clearable with null), deletion, sorted paged listing. Every
 * change emits skill.created / skill.updated / skill.deleted.
 *
 * short_key is unique per workspace regardless of letter case. The check reads the workspace's
 * skills first (queued per workspace in this process), which names the holder in the 409; a
 * guard item per key, created in the skill's own transaction, keeps the rule across containers
 * writing at the same instant.
 *
 * Deleting a skill leaves users' references to it in place; the users domain drops ids of
 * skills that no longer exist when it shows a user's skills.
 */
import type { z } from 'zod';
import type { Actor } from '../../auth/actor.ts';
import { DataError } from '../../data/data-error.ts';
import type { TableWrite } from '../../data/table.ts';
import { domainEvent, previousAttributes } from '../../events/domain-event.ts';
import { defaultPageSize, pageOf } from '../../schema/list.ts';
import { serialized } from '../keyed-mutex.ts';
import { newRecordId } from '../record-id.ts';
import { deleteExisting, mergePatch, updateVersioned } from '../versioned-write.ts';
import { deriveShortKey, shortKeyIdentity, uniqueShortKey } from './short-key.ts';
import type { CreateSkillSchema, Skill, SkillListQuery, UpdateSkillSchema } from './skill.schema.ts';
import { skillShortKeyStore, skillStore } from './skill.store.ts';
import { SkillError } from './skill-error.ts';

const resource = (id: string) => ({ type: 'skill', id });

export const defaultSkillType = 'GENERAL';

/** Writes that may claim a short_key queue on this key, so their check-then-write does not interleave. */
const shortKeyLock = (workspaceId: string) => `skill-short-keys:${workspaceId}`;

/** A page through the list indexes (skill.list.ts); default order name ascending, ties by id. */
export async function listSkills(ctx: Actor, query: z.output<typeof SkillListQuery>) {
  const { items, total } = await skillStore.of(ctx).page({
    order: query.sort?.length ? query.sort : [{ field: 'name', direction: 'asc' }],
    page: query.page ?? 0,
    size: query.size ?? defaultPageSize,
  });
  return { items, page: pageOf(total, query) };
}

export async function getSkill(ctx: Actor, id: string): Promise<Skill> {
  const skill = await skillStore.of(ctx).get(id);
  if (!skill) throw new SkillError('not-found');
  return skill;
}

export async function createSkill(ctx: Actor, input: z.output<typeof CreateSkillSchema>): Promise<Skill> {
  return serialized(shortKeyLock(ctx.workspaceId), async () => {
    const existing = await skillStore.of(ctx).list();
    if (input.short_key !== undefined) assertShortKeyFree(existing, input.short_key);
    const shortKey =
      input.short_key ??
      uniqueShortKey(
        deriveShortKey(input.name),
        existing.map((s) => s.short_key),
      );
    const now = new Date().toISOString();
    const skill: Skill = {
      id: newRecordId(),
      name: input.name,
      skill_type: input.skill_type ?? defaultSkillType,
      short_key: shortKey,
      ...(input.description !== undefined ? { description: input.description } : {}),
      created_at: now,
      updated_at: now,
      lock_version: 0,
    };
    await guardedShortKey(shortKey, () =>
      skillStore
        .of(ctx)
        .create(skill, domainEvent(ctx, 'skill.created', resource(skill.id), skill), [
          claimShortKey(ctx, skill),
        ]),
    );
    return skill;
  });
}

export async function updateSkill(
  ctx: Actor,
  id: string,
  patch: z.output<typeof UpdateSkillSchema>,
): Promise<Skill> {
  const write = (others: readonly Skill[]) =>
    updateVersioned<Skill>({
      key: `skill:${ctx.workspaceId}:${id}`,
      load: () => skillStore.of(ctx).get(id),
      expectedVersion: patch.lock_version,
      apply: (current) => {
        // Uniqueness is checked only for a short_key that is sent (SPEC.md rule 5).
        if (patch.short_key !== undefined) {
          assertShortKeyFree(
            others.filter((s) => s.id !== current.id),
            patch.short_key,
          );
        }
        return mergePatch(current, patch);
      },
      save: (next, current) =>
        guardedShortKey(next.short_key, () =>
          skillStore
            .of(ctx)
            .replace(
              next,
              current,
              domainEvent(ctx, 'skill.updated', resource(id), next, previousAttributes(current, next)),
              shortKeyIdentity(next.short_key) === shortKeyIdentity(current.short_key)
                ? []
                : [releaseShortKey(ctx, current), claimShortKey(ctx, next)],
            ),
        ),
    });
  if (patch.short_key === undefined) return (await write([])).after;
  return serialized(shortKeyLock(ctx.workspaceId), async () => {
    const others = await skillStore.of(ctx).list();
    return (await write(others)).after;
  });
}

export async function deleteSkill(ctx: Actor, id: string): Promise<void> {
  await deleteExisting<Skill>({
    load: () => skillStore.of(ctx).get(id),
    remove: (current) =>
      skillStore
        .of(ctx)
        .remove(current, domainEvent(ctx, 'skill.deleted', resource(id), current), [
          releaseShortKey(ctx, current),
        ]),
  });
}

const claimShortKey = (ctx: Actor, skill: Skill): TableWrite =>
  skillShortKeyStore.of(ctx).claim(shortKeyIdentity(skill.short_key), skill.id);

const releaseShortKey = (ctx: Actor, skill: Skill): TableWrite =>
  skillShortKeyStore.of(ctx).release(shortKeyIdentity(skill.short_key));

/** A taken guard item (another container won the race) is the same 409 as a taken key. */
async function guardedShortKey(shortKey: string, write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (error) {
    if (error instanceof DataError && error.code === 'already-exists') throw shortKeyTaken(shortKey);
    throw error;
  }
}

function assertShortKeyFree(skills: readonly Skill[], shortKey: string): void {
  const holder = skills.find((s) => shortKeyIdentity(s.short_key) === shortKeyIdentity(shortKey));
  if (holder) throw shortKeyTaken(holder.short_key, holder.id);
}

function shortKeyTaken(shortKey: string, holderId?: string): SkillError {
  return new SkillError('already-exists', {
    detail: `Another skill of this workspace already uses short_key ${shortKey}.`,
    fields: [
      {
        type: 'field-invalid',
        detail: 'is already used by another skill (short keys are compared regardless of letter case)',
        pointer: '#/short_key',
        ...(holderId ? { data: { skill_id: holderId } } : {}),
      },
    ],
  });
}
