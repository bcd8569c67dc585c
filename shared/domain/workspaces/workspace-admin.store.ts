/**
 * What the admin control plane stores beyond the directory's own builders: pages of the
 * platform's workspace list, the owners the list shows, and the conditional writes that create
 * or change a workspace, its owner and its API clients. Every key comes from keys.ts; the
 * writes commit through `transactWrite`.
 */
import {
  type EmailGuardRecord,
  emailGuardWrite,
  ensureRealm,
  getWorkspace,
  ownerIdsOf,
  ownerWrite,
  type PrincipalRecord,
  principalWrites,
  type WorkspaceRecord,
  workspaceWrites,
} from '../../data/directory.store.ts';
import { workspaceList } from '../../data/directory-lists.ts';
import { keys } from '../../data/keys.ts';
import { platformScope } from '../../data/list-patterns.ts';
import { type ListOrder, listPage } from '../../data/list-read.ts';
import { outboxWrite } from '../../data/outbox.ts';
import { transactWrite } from '../../data/table.ts';
import type { DomainEvent } from '../../events/domain-event.ts';
import type { ClientRecord } from '../../identity/identity-directory.ts';

/**
 * The workspace item as the admin plane sees it. `billing_locked` remembers a billing lock
 * apart from activation, so deactivating and re-activating a locked workspace keeps it
 * locked; items written before it existed (and the seed) derive it from `status`.
 */
export interface AdminWorkspaceRecord extends WorkspaceRecord {
  billing_locked?: boolean;
}

/** A page of workspaces through the platform's workspace list (data/lists.ts `workspaceList`). */
export async function pageOfWorkspaces(request: {
  order: ListOrder[];
  page: number;
  size: number;
}): Promise<{ items: AdminWorkspaceRecord[]; total: number }> {
  const { items, total } = await listPage(workspaceList, { ...request, scope: platformScope });
  return { items: items as unknown as AdminWorkspaceRecord[], total };
}

export async function getAdminWorkspace(workspaceId: string): Promise<AdminWorkspaceRecord | undefined> {
  return (await getWorkspace(workspaceId)) as AdminWorkspaceRecord | undefined;
}

/** The owner ids of these workspaces, in order (their owner pointers: one BatchGetItem). */
export function ownersOf(workspaceIds: readonly string[]): Promise<Array<string | undefined>> {
  return ownerIdsOf(workspaceIds);
}

/**
 * A new workspace with its owner in ONE transaction: the workspace and its index entry, the
 * owner principal and the owner's e-mail guard in the realm, and the events. Fails with
 * `already-exists` when the e-mail is taken in the realm (the ids are new UUIDv7s, so the guard
 * is the only create that can collide). The realm item is created before, when absent, by a
 * write of its own: in the transaction, every workspace creation of the realm would write it, and
 * two at once would cancel each other (shared/data/README.md, "Counters: tallies").
 */
export async function createWorkspaceWithOwner(params: {
  workspace: AdminWorkspaceRecord;
  owner: PrincipalRecord;
  guard: EmailGuardRecord;
  events: readonly DomainEvent[];
}): Promise<void> {
  const { workspace, owner, guard, events } = params;
  await ensureRealm(workspace.realm);
  await transactWrite([
    ...workspaceWrites(workspace, undefined, 'create'),
    ...principalWrites(owner, undefined, 'create'),
    ownerWrite(workspace.id, owner.id),
    emailGuardWrite(workspace.realm, guard, 'create'),
    ...events.map(outboxWrite),
  ]);
}

/** Replace the workspace item if it still has the version of `current` (as read), with its event. */
export async function replaceWorkspace(
  workspace: AdminWorkspaceRecord,
  current: AdminWorkspaceRecord,
  event: DomainEvent,
): Promise<void> {
  const [item, ...listed] = workspaceWrites(workspace, current);
  if (item?.kind !== 'put') throw new Error('a workspace write starts with its item');
  await transactWrite([
    { ...item, kind: 'replace', expectedVersion: current.lock_version },
    ...listed,
    outboxWrite(event),
  ]);
}

/**
 * An OIDC client of the workspace's realm and the service account it acts as, created
 * together; `already-exists` when the client id is taken in the realm.
 */
export async function createClientWithServiceAccount(params: {
  realm: string;
  client: ClientRecord;
  serviceAccount: PrincipalRecord;
}): Promise<void> {
  const { realm, client, serviceAccount } = params;
  await transactWrite([
    { kind: 'create', key: keys.client(realm, client.clientId), entity: 'client', record: { ...client } },
    ...principalWrites(serviceAccount, undefined, 'create'),
  ]);
}
