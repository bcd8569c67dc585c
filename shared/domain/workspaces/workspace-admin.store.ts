/**
 * What the admin control plane stores beyond the directory's own builders: the workspace
 * index (one small item per workspace under a global partition, for paging through
 * workspaces) and the conditional writes that create or change a workspace, its owner and
 * its API clients. Every key comes from keys.ts; the writes commit through `transactWrite`.
 */
import {
  type EmailGuardRecord,
  emailGuardWrite,
  getWorkspace,
  listPrincipals,
  type PrincipalRecord,
  type WorkspaceRecord,
} from '../../data/directory.store.ts';
import { keys } from '../../data/keys.ts';
import { outboxWrite } from '../../data/outbox.ts';
import { getRecords, queryPartition, type TableWrite, transactWrite } from '../../data/table.ts';
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

export type WorkspaceIndexEntry = {
  id: string;
  created_at: string;
};

const indexPartition = keys.workspaceIndex('').pk;

export function workspaceIndexWrite(workspace: Pick<WorkspaceRecord, 'id' | 'created_at'>): TableWrite {
  return {
    kind: 'put',
    key: keys.workspaceIndex(workspace.id),
    entity: 'workspace-index',
    record: { id: workspace.id, created_at: workspace.created_at },
  };
}

/** Every indexed workspace (one Query per 1 MB: about 15 000 entries). */
export async function listWorkspaceIndex(): Promise<WorkspaceIndexEntry[]> {
  return (await queryPartition(indexPartition)) as unknown as WorkspaceIndexEntry[];
}

export async function getAdminWorkspace(workspaceId: string): Promise<AdminWorkspaceRecord | undefined> {
  return (await getWorkspace(workspaceId)) as AdminWorkspaceRecord | undefined;
}

/** Workspaces by id, in the order asked (absent ones dropped): one GetItem each, in parallel. */
export async function getAdminWorkspaces(ids: readonly string[]): Promise<AdminWorkspaceRecord[]> {
  const records = await getRecords(ids.map((id) => keys.workspace(id)));
  return records.filter((record) => record !== undefined) as unknown as AdminWorkspaceRecord[];
}

/** The workspace's current owner: its user principal holding the owner role (one Query). */
export async function findOwner(workspaceId: string): Promise<PrincipalRecord | undefined> {
  const principals = await listPrincipals(workspaceId);
  const owners = principals.filter((p) => p.kind === 'user' && p.roles.includes('owner'));
  return owners.find((p) => p.status === 'ACTIVE') ?? owners[0];
}

/**
 * A new workspace with its owner in ONE transaction: the workspace and its index entry, the
 * realm (idempotent), the owner principal and the owner's e-mail guard in the realm, and the
 * events. Fails with `already-exists` when the e-mail is taken in the realm (the ids are new
 * UUIDv7s, so the guard is the only create that can collide).
 */
export async function createWorkspaceWithOwner(params: {
  workspace: AdminWorkspaceRecord;
  owner: PrincipalRecord;
  guard: EmailGuardRecord;
  events: readonly DomainEvent[];
}): Promise<void> {
  const { workspace, owner, guard, events } = params;
  await transactWrite([
    { kind: 'create', key: keys.workspace(workspace.id), entity: 'workspace', record: { ...workspace } },
    workspaceIndexWrite(workspace),
    { kind: 'put', key: keys.realm(workspace.realm), entity: 'realm', record: { name: workspace.realm } },
    {
      kind: 'create',
      key: keys.principal(owner.workspace_id, owner.id),
      entity: 'principal',
      record: { ...owner },
    },
    emailGuardWrite(workspace.realm, guard, 'create'),
    ...events.map(outboxWrite),
  ]);
}

/** Replace the workspace item if it still has `expectedVersion`, with its event. */
export async function replaceWorkspace(
  workspace: AdminWorkspaceRecord,
  expectedVersion: number,
  event: DomainEvent,
): Promise<void> {
  await transactWrite([
    {
      kind: 'replace',
      key: keys.workspace(workspace.id),
      entity: 'workspace',
      record: { ...workspace },
      expectedVersion,
    },
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
    {
      kind: 'create',
      key: keys.principal(serviceAccount.workspace_id, serviceAccount.id),
      entity: 'principal',
      record: { ...serviceAccount },
    },
  ]);
}
