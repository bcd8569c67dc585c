/**
 * Writing users: every change of a user principal is one versioned replace of the principal
 * item plus its `user.updated` event (and whatever else must change with it: credential, tag
 * usage counters) in one transaction. Changes a person asked for carry them as actor; changes
 * the service makes by itself (blocking after failed sign-ins, spending a set-password link)
 * carry actor SYSTEM. Every write drops the principal from the authentication cache, so a
 * deactivation or a role change applies to the next request.
 */

import type { Actor } from '../../auth/actor.ts';
import { evictAuthCache } from '../../auth/authenticate.ts';
import { getPrincipal, type PrincipalRecord, principalWrites } from '../../data/directory.store.ts';
import { userList } from '../../data/directory-lists.ts';
import { outboxWrite } from '../../data/outbox.ts';
import { resourceStore } from '../../data/resource-store.ts';
import { type TableWrite, transactWrite } from '../../data/table.ts';
import { type DomainEvent, domainEvent, previousAttributes, systemEvent } from '../../events/domain-event.ts';
import { updateVersioned } from '../versioned-write.ts';
import { toUser, type UserCatalogs } from './user.representation.ts';

export const principalStore = resourceStore<PrincipalRecord>('principal', 'PRINCIPAL', userList);

/** Who changes a user: the caller of a request, or the service itself. */
export type UserChangeActor = Actor | 'SYSTEM';

const userResource = (id: string) => ({ type: 'user', id });

/** A user principal of the workspace; service accounts and unknown ids are undefined. */
export async function findUser(workspaceId: string, userId: string): Promise<PrincipalRecord | undefined> {
  const principal = await getPrincipal(workspaceId, userId);
  return principal?.kind === 'user' ? principal : undefined;
}

export function userEvent(
  actor: UserChangeActor,
  workspaceId: string,
  type: 'user.created' | 'user.updated',
  object: Record<string, unknown>,
  previous?: Record<string, unknown>,
): DomainEvent {
  const resource = userResource(String(object.id));
  return actor === 'SYSTEM'
    ? systemEvent(workspaceId, type, resource, object, previous)
    : domainEvent(actor, type, resource, object, previous);
}

/** The event of a change from `before` to `after`, over the API representation. */
export function userUpdatedEvent(
  actor: UserChangeActor,
  before: PrincipalRecord,
  after: PrincipalRecord,
  catalogs: UserCatalogs,
): DomainEvent {
  const previous = toUser(before, catalogs);
  const next = toUser(after, catalogs);
  return userEvent(actor, after.workspace_id, 'user.updated', next, previousAttributes(previous, next));
}

/**
 * Change one user under the optimistic-concurrency rules (versioned-write.ts): 404 for
 * unknown ids and service accounts, 409 on a stale `expectedVersion`.
 */
export async function updateUser(params: {
  actor: UserChangeActor;
  workspaceId: string;
  userId: string;
  expectedVersion?: number | null | undefined;
  catalogs: UserCatalogs;
  apply: (current: PrincipalRecord) => PrincipalRecord;
  /** More writes of the same transaction, e.g. the credential or tag usage counters. */
  extra?: (next: PrincipalRecord, current: PrincipalRecord) => TableWrite[];
}): Promise<{ before: PrincipalRecord; after: PrincipalRecord }> {
  const { actor, workspaceId, userId, catalogs } = params;
  try {
    return await updateVersioned<PrincipalRecord>({
      key: `principal:${workspaceId}:${userId}`,
      load: () => findUser(workspaceId, userId),
      expectedVersion: params.expectedVersion,
      apply: params.apply,
      save: (next, current) =>
        principalStore
          .of(workspaceId)
          .replace(
            next,
            current,
            userUpdatedEvent(actor, current, next, catalogs),
            params.extra?.(next, current) ?? [],
          ),
    });
  } finally {
    evictAuthCache(workspaceId, userId);
  }
}

/**
 * Several users of a workspace replaced in ONE transaction, each on the version read (`before`)
 * with its event, and `extra` writes beside them (the owner pointer of an ownership transfer).
 * Fails with DataError `version-conflict` (or `not-found`) when any of them changed meanwhile.
 */
export async function replaceUsers(
  workspaceId: string,
  changes: ReadonlyArray<{ before: PrincipalRecord; after: PrincipalRecord; event: DomainEvent }>,
  extra: readonly TableWrite[] = [],
): Promise<void> {
  const writes = changes.flatMap(({ before, after, event }) => {
    if (after.workspace_id !== workspaceId) throw new Error('a user of another workspace');
    const [item, ...listed] = principalWrites(after, before);
    if (item?.kind !== 'put') throw new Error('a principal write starts with its item');
    return [
      { ...item, kind: 'replace' as const, expectedVersion: before.lock_version },
      ...listed,
      outboxWrite(event),
    ];
  });
  await transactWrite([...writes, ...extra]);
}
