/**
 * Workspaces, their principals (users and service accounts), realms and OIDC clients: what
 * authentication reads on every request and the identity provider reads on every token.
 */
import type { ClientRecord, IdentityDirectory } from '../identity/identity-directory.ts';
import { collectionPk, keys } from './keys.ts';
import { getRecord, queryPartition, type StoredRecord, type TableWrite, transactWrite } from './table.ts';

export type WorkspaceStatus = 'ACTIVE' | 'INACTIVE' | 'BILLING_LOCKED';

export interface WorkspaceRecord {
  id: string;
  name: string;
  realm: string;
  status: WorkspaceStatus;
  created_at: string;
  updated_at: string;
  lock_version: number;
}

export interface PrincipalRecord {
  id: string;
  workspace_id: string;
  kind: 'user' | 'service_account';
  status: 'ACTIVE' | 'BLOCKED' | 'INACTIVE';
  roles: string[];
  email?: string;
  firstname?: string;
  lastname?: string;
  /** Service accounts: the OIDC client they act for. */
  client_id?: string;
  password_hash?: string;
  created_at: string;
  updated_at: string;
  lock_version: number;
}

export async function getWorkspace(workspaceId: string): Promise<WorkspaceRecord | undefined> {
  return (await getRecord(keys.workspace(workspaceId))) as WorkspaceRecord | undefined;
}

/** Every principal of a workspace (one Query), for setup work that touches many of them. */
export async function listPrincipals(workspaceId: string): Promise<PrincipalRecord[]> {
  return (await queryPartition(collectionPk(workspaceId, 'PRINCIPAL'))) as unknown as PrincipalRecord[];
}

export async function getPrincipal(
  workspaceId: string,
  principalId: string,
): Promise<PrincipalRecord | undefined> {
  return (await getRecord(keys.principal(workspaceId, principalId))) as PrincipalRecord | undefined;
}

export function workspaceWrite(workspace: WorkspaceRecord): TableWrite {
  return { kind: 'put', key: keys.workspace(workspace.id), entity: 'workspace', record: { ...workspace } };
}

export function principalWrite(principal: PrincipalRecord): TableWrite {
  return {
    kind: 'put',
    key: keys.principal(principal.workspace_id, principal.id),
    entity: 'principal',
    record: { ...principal },
  };
}

export function realmWrite(realm: string): TableWrite {
  return { kind: 'put', key: keys.realm(realm), entity: 'realm', record: { name: realm } };
}

export function clientWrite(realm: string, client: ClientRecord): TableWrite {
  return { kind: 'put', key: keys.client(realm, client.clientId), entity: 'client', record: { ...client } };
}

/** Commit setup writes (seeding, admin plane) in chunks of DynamoDB's transaction limit. */
export async function commitAll(writes: TableWrite[]): Promise<void> {
  for (let i = 0; i < writes.length; i += 100) await transactWrite(writes.slice(i, i + 100));
}

/** The identity provider's view of the directory, backed by the table. */
export const tableIdentityDirectory: IdentityDirectory = {
  async realmExists(realm) {
    return (await getRecord(keys.realm(realm))) !== undefined;
  },
  async findClient(realm, clientId) {
    const record: StoredRecord | undefined = await getRecord(keys.client(realm, clientId));
    return record as ClientRecord | undefined;
  },
};
