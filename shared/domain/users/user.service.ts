/**
 * Users: reading, creating, merge-patching and replacing a user's skill and tag sets.
 * Lifecycle actions live in user-lifecycle.ts, the list in user-list.ts, the caller's own
 * account in me.service.ts.
 *
 * Rules kept here:
 * - e-mails are login names, unique per identity realm (a guard item claimed in the create
 *   transaction; a taken one is 409 pointing at #/email) and immutable afterwards;
 * - the owner role is never given or taken by create or patch, only by transfer-ownership;
 * - skill and tag ids must exist in the workspace; a tag set change moves the tags' usage
 *   counters in the same transaction.
 */
import { v7 as uuidv7 } from 'uuid';
import type { z } from 'zod';
import type { Actor } from '../../auth/actor.ts';
import { roleNames } from '../../auth/grants.ts';
import { DataError } from '../../data/data-error.ts';
import { emailGuardWrite, getWorkspace, type PrincipalRecord } from '../../data/directory.store.ts';
import { logger } from '../../observability/logger.ts';
import type { FieldError } from '../../schema/field-error.ts';
import { tagUsageStore } from '../tags/tag-usage.store.ts';
import { sendSetPasswordInvitation } from './set-password-invitation.ts';
import {
  catalogsFor,
  existingIds,
  loadCatalogs,
  skillOfferingsOf,
  tagReferencesOf,
  toUser,
  type UserCatalogs,
} from './user.representation.ts';
import type {
  CreateUserSchema,
  ReplaceUserSkillsSchema,
  ReplaceUserTagsSchema,
  UpdateUserSchema,
  User,
} from './user.schema.ts';
import { findUser, principalStore, updateUser, userEvent } from './user.store.ts';
import { UserError } from './user-error.ts';
import { normalizedIds, referenceErrors } from './user-references.ts';

/** Role names in catalog order (owner first), whatever order they were given in. */
export function orderedRoles(roles: readonly string[]): string[] {
  return roleNames.filter((name) => roles.includes(name));
}

export async function findUserOrThrow(workspaceId: string, userId: string): Promise<PrincipalRecord> {
  const user = await findUser(workspaceId, userId);
  if (!user) throw new UserError('not-found');
  return user;
}

/** Reads resolve only the user's own skills and tags (one BatchGetItem each), never the catalogs. */
export async function getUser(ctx: Actor, userId: string): Promise<User> {
  const user = await findUserOrThrow(ctx.workspaceId, userId);
  return toUser(user, await catalogsFor(ctx.workspaceId, [user]));
}

export async function createUser(
  ctx: Actor,
  input: z.output<typeof CreateUserSchema>,
  origin: string | undefined,
): Promise<User> {
  const workspaceId = ctx.workspaceId;
  const [workspace, catalogs] = await Promise.all([getWorkspace(workspaceId), loadCatalogs(workspaceId)]);
  if (!workspace) throw new UserError('not-found', { detail: 'The workspace no longer exists.' });
  const errors = referenceErrors(input, catalogs);
  if (errors.length > 0) throw new UserError('invalid', { fields: errors });

  const now = new Date().toISOString();
  const user: PrincipalRecord = {
    id: uuidv7(),
    workspace_id: workspaceId,
    kind: 'user',
    status: 'ACTIVE',
    roles: orderedRoles(input.role_ids),
    email: input.email,
    firstname: input.firstname,
    lastname: input.lastname,
    ...(input.phone_number ? { phone_number: input.phone_number } : {}),
    skill_ids: normalizedIds(input.skill_ids),
    tag_ids: normalizedIds(input.tag_ids),
    can_resend_set_password_email: true,
    created_at: now,
    updated_at: now,
    lock_version: 0,
  };
  const representation = toUser(user, catalogs);
  try {
    await principalStore
      .of(workspaceId)
      .create(user, userEvent(ctx, workspaceId, 'user.created', representation), [
        emailGuardWrite(workspace.realm, { email: input.email, workspace_id: workspaceId, user_id: user.id }),
        ...tagUsageStore.of(workspaceId).changes([], user.tag_ids ?? []),
      ]);
  } catch (error) {
    if (error instanceof DataError && error.code === 'already-exists') throw emailTaken();
    throw error;
  }
  await invite(workspace.realm, user, origin, 'invitation');
  return representation;
}

function emailTaken(): UserError {
  const detail = 'A user with this e-mail already exists (e-mails are unique across the identity realm).';
  return new UserError('already-exists', {
    detail,
    fields: [{ type: 'field-invalid', pointer: '#/email', detail: 'is already taken' }],
  });
}

/**
 * Send a set-password e-mail. An invitation follows a user that is saved already: its mail
 * failure is logged, not answered, and the link can be sent again (resend-set-password-email).
 * A reminder's failure is the answer: 503 with Retry-After (MailError).
 */
export async function invite(
  realm: string,
  user: PrincipalRecord,
  origin: string | undefined,
  kind: 'invitation' | 'reminder' | 'recovery',
): Promise<void> {
  try {
    await sendSetPasswordInvitation({
      workspaceId: user.workspace_id,
      realm,
      user: { id: user.id, email: user.email ?? '', firstname: user.firstname },
      origin,
      kind,
    });
  } catch (error) {
    logger.error('set-password e-mail not sent', {
      userId: user.id,
      kind,
      error: error instanceof Error ? error.message : String(error),
    });
    if (kind === 'reminder') throw error;
  }
}

/** The tag usage counters a change of the stored tag set moves (deleted tags are left alone). */
function tagUsageChange(workspaceId: string, catalogs: UserCatalogs) {
  return (next: PrincipalRecord, current: PrincipalRecord) =>
    tagUsageStore
      .of(workspaceId)
      .changes(existingIds(current.tag_ids, catalogs.tags), existingIds(next.tag_ids, catalogs.tags));
}

export async function patchUser(
  ctx: Actor,
  userId: string,
  patch: z.output<typeof UpdateUserSchema>,
): Promise<User> {
  const workspaceId = ctx.workspaceId;
  const catalogs = await loadCatalogs(workspaceId);
  const { after } = await updateUser({
    actor: ctx,
    workspaceId,
    userId,
    expectedVersion: patch.lock_version,
    catalogs,
    apply: (current) => {
      const errors: FieldError[] = [
        ...immutableEmailErrors(current, patch.email),
        ...ownerRoleErrors(current, patch.role_ids),
      ];
      errors.push(...referenceErrors(patch, catalogs));
      if (errors.length > 0) throw new UserError('invalid', { fields: errors });
      const next: PrincipalRecord = { ...current };
      if (patch.firstname !== undefined) next.firstname = patch.firstname;
      if (patch.lastname !== undefined) next.lastname = patch.lastname;
      if (patch.phone_number === null) delete next.phone_number;
      else if (patch.phone_number !== undefined) next.phone_number = patch.phone_number;
      if (patch.role_ids !== undefined) next.roles = orderedRoles(patch.role_ids);
      if (patch.skill_ids !== undefined) next.skill_ids = normalizedIds(patch.skill_ids);
      if (patch.tag_ids !== undefined) next.tag_ids = normalizedIds(patch.tag_ids);
      return next;
    },
    extra: tagUsageChange(workspaceId, catalogs),
  });
  return toUser(after, catalogs);
}

function immutableEmailErrors(current: PrincipalRecord, email: string | undefined): FieldError[] {
  if (email === undefined || email.toLowerCase() === current.email) return [];
  return [
    {
      type: 'field-invalid',
      pointer: '#/email',
      detail: 'is immutable after creation; send the stored e-mail or omit it',
    },
  ];
}

function ownerRoleErrors(current: PrincipalRecord, roles: readonly string[] | undefined): FieldError[] {
  if (roles === undefined) return [];
  const wasOwner = current.roles.includes('owner');
  if (wasOwner === roles.includes('owner')) return [];
  return [
    {
      type: 'field-invalid',
      pointer: '#/role_ids',
      detail: wasOwner
        ? 'the owner role cannot be removed here; transfer ownership to another user instead'
        : 'the owner role cannot be given here; use POST /api/v2/users/{user_id}/transfer-ownership',
    },
  ];
}

export async function getUserSkills(ctx: Actor, userId: string) {
  const user = await findUserOrThrow(ctx.workspaceId, userId);
  return { items: skillOfferingsOf(user, await catalogsFor(ctx.workspaceId, [user])) };
}

export async function getUserTags(ctx: Actor, userId: string) {
  const user = await findUserOrThrow(ctx.workspaceId, userId);
  return { items: tagReferencesOf(user, await catalogsFor(ctx.workspaceId, [user])) };
}

/** PUT /users/{user_id}/skills: the body is the new set. */
export function replaceUserSkills(
  ctx: Actor,
  userId: string,
  body: z.output<typeof ReplaceUserSkillsSchema>,
): Promise<User> {
  return replaceUserSet(ctx, userId, 'skill_ids', body.skill_ids, body.lock_version);
}

/** PUT /users/{user_id}/tags: the body is the new set (tag usage counters follow). */
export function replaceUserTags(
  ctx: Actor,
  userId: string,
  body: z.output<typeof ReplaceUserTagsSchema>,
): Promise<User> {
  return replaceUserSet(ctx, userId, 'tag_ids', body.tag_ids, body.lock_version);
}

/** Whole-set replacement (SPEC.md rule 6) of a user's skill or tag references. */
async function replaceUserSet(
  ctx: Actor,
  userId: string,
  field: 'skill_ids' | 'tag_ids',
  ids: readonly string[],
  lockVersion: number | null | undefined,
): Promise<User> {
  const catalogs = await loadCatalogs(ctx.workspaceId);
  const { after } = await updateUser({
    actor: ctx,
    workspaceId: ctx.workspaceId,
    userId,
    expectedVersion: lockVersion,
    catalogs,
    apply: (current) => {
      const errors = referenceErrors({ [field]: ids }, catalogs);
      if (errors.length > 0) throw new UserError('invalid', { fields: errors });
      return { ...current, [field]: normalizedIds(ids) };
    },
    ...(field === 'tag_ids' ? { extra: tagUsageChange(ctx.workspaceId, catalogs) } : {}),
  });
  return toUser(after, catalogs);
}
