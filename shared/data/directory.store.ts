/**
 * Workspaces, their principals (users and service accounts), realms and OIDC clients: what
 * authentication reads on every request and the identity provider reads on every token.
 */
import type { ClientRecord, IdentityDirectory } from '../identity/identity-directory.ts';
import { DataError } from './data-error.ts';
import { userList, workspaceList } from './directory-lists.ts';
import { collectionPk, keys, listKeys } from './keys.ts';
import { indexedItem, listWrites } from './list-index.ts';
import { platformScope, workspaceScope } from './list-patterns.ts';
import {
  getRecord,
  getRecords,
  mergedCounterWrites,
  queryPartition,
  removeAttributesIf,
  type StoredRecord,
  type TableWrite,
  transactWrite,
  writeItem,
} from './table.ts';

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

export type PrincipalStatus = 'ACTIVE' | 'BLOCKED' | 'INACTIVE';

/**
 * A user or a service account of a workspace. Users carry the User fields of SPEC.md (role
 * names, skill and tag ids are resolved to the API shape when read); secrets live apart, in
 * the principal's CredentialRecord.
 */
export interface PrincipalRecord {
  id: string;
  workspace_id: string;
  kind: 'user' | 'service_account';
  status: PrincipalStatus;
  /** Role names (owner, admin, dispatcher, technician, driver). */
  roles: string[];
  email?: string;
  firstname?: string;
  lastname?: string;
  /** E.164. */
  phone_number?: string;
  /** Skill definitions the user offers. */
  skill_ids?: string[];
  tag_ids?: string[];
  /** True from the invitation until the user has set a password. */
  can_resend_set_password_email?: boolean;
  /** Service accounts: the OIDC client they act for. */
  client_id?: string;
  created_at: string;
  updated_at: string;
  lock_version: number;
}

/**
 * Secrets and sign-in state of a user (never returned, never logged). Kept apart from the
 * principal so failed sign-ins and password changes do not touch the user's lock_version.
 */
export interface CredentialRecord {
  user_id: string;
  workspace_id: string;
  /** scrypt hash (shared/auth/password-hash.ts); absent until the user sets a password. */
  password_hash?: string;
  /** Consecutive failed sign-ins since the last success or unblock. */
  failed_logins?: number;
  /** SHA-256 of the secret part of the pending set-password link, and when it expires. */
  set_password_token_hash?: string;
  set_password_token_expires_at?: string;
  updated_at: string;
}

/** Where a login name (e-mail) of a realm belongs. */
export interface EmailGuardRecord {
  email: string;
  workspace_id: string;
  user_id: string;
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

export async function getCredential(
  workspaceId: string,
  userId: string,
): Promise<CredentialRecord | undefined> {
  return (await getRecord(keys.credential(workspaceId, userId))) as CredentialRecord | undefined;
}

export function credentialWrite(credential: CredentialRecord): TableWrite {
  return {
    kind: 'put',
    key: keys.credential(credential.workspace_id, credential.user_id),
    entity: 'credential',
    record: { ...credential },
  };
}

/**
 * Spend a pending set-password link: removes its hash and expiry only while the stored hash is
 * still `tokenHash`, so of two concurrent uses exactly one gets true.
 */
export function claimSetPasswordLink(
  workspaceId: string,
  userId: string,
  tokenHash: string,
): Promise<boolean> {
  return removeAttributesIf(
    keys.credential(workspaceId, userId),
    ['set_password_token_hash', 'set_password_token_expires_at'],
    { attribute: 'set_password_token_hash', equals: tokenHash },
  );
}

/** The user an e-mail of a realm belongs to (one GetItem on the guard item). */
export async function findEmail(realm: string, email: string): Promise<EmailGuardRecord | undefined> {
  return (await getRecord(keys.realmEmail(realm, email))) as EmailGuardRecord | undefined;
}

/**
 * Claim an e-mail in a realm; the transaction fails with `already-exists` when it is taken.
 * `put` (idempotent re-apply) is for provisioning, which owns its e-mails by construction.
 */
export function emailGuardWrite(
  realm: string,
  guard: EmailGuardRecord,
  kind: 'create' | 'put' = 'create',
): TableWrite {
  const email = guard.email.toLowerCase();
  return { kind, key: keys.realmEmail(realm, email), entity: 'email', record: { ...guard, email } };
}

export function emailReleaseWrite(realm: string, email: string): TableWrite {
  return { kind: 'delete', key: keys.realmEmail(realm, email) };
}

/**
 * Writing a workspace: the item with its list index attributes and the list's counters
 * (lists.ts `workspaceList`). `before` is the stored workspace, when there is one; `kind`
 * `create` fails when it exists, `put` (provisioning) re-applies.
 */
export function workspaceWrites(
  workspace: WorkspaceRecord,
  before: WorkspaceRecord | undefined,
  kind: 'create' | 'put' = 'put',
): TableWrite[] {
  return [
    {
      kind,
      key: keys.workspace(workspace.id),
      entity: 'workspace',
      record: indexedItem(workspaceList, platformScope, workspace),
    },
    ...listWrites(workspaceList, platformScope, before, workspace),
  ];
}

/**
 * Writing a principal: the item with the users' list index attributes, counters and search
 * tokens (lists.ts `userList`; service accounts are not listed). `before` as above.
 */
export function principalWrites(
  principal: PrincipalRecord,
  before: PrincipalRecord | undefined,
  kind: 'create' | 'put' = 'put',
): TableWrite[] {
  const scope = workspaceScope(principal.workspace_id);
  return [
    {
      kind,
      key: keys.principal(principal.workspace_id, principal.id),
      entity: 'principal',
      record: indexedItem(userList, scope, principal),
    },
    ...listWrites(userList, scope, before, principal),
  ];
}

/** The pointer to a workspace's owner, which the admin plane shows (keys.ts `listKeys.owner`). */
export function ownerWrite(workspaceId: string, ownerId: string): TableWrite {
  return { kind: 'put', key: listKeys.owner(workspaceId), entity: 'owner', record: { owner_id: ownerId } };
}

/** The owners of these workspaces, in order (one BatchGetItem per 100). */
export async function ownerIdsOf(workspaceIds: readonly string[]): Promise<Array<string | undefined>> {
  const pointers = await getRecords(workspaceIds.map((id) => listKeys.owner(id)));
  return pointers.map((pointer) => (typeof pointer?.owner_id === 'string' ? pointer.owner_id : undefined));
}

/**
 * The realm's item, created when absent (a conditional PutItem of its own; an existing realm is
 * left as it is): what every new workspace of a realm needs, outside the workspace's transaction.
 */
export async function ensureRealm(realm: string): Promise<void> {
  try {
    await writeItem({ kind: 'create', key: keys.realm(realm), entity: 'realm', record: { name: realm } });
  } catch (error) {
    if (!(error instanceof DataError && error.code === 'already-exists')) throw error;
  }
}

export function realmWrite(realm: string): TableWrite {
  return { kind: 'put', key: keys.realm(realm), entity: 'realm', record: { name: realm } };
}

export function clientWrite(realm: string, client: ClientRecord): TableWrite {
  return { kind: 'put', key: keys.client(realm, client.clientId), entity: 'client', record: { ...client } };
}

/**
 * Commit setup writes (seeding, admin plane) in transactions of up to DynamoDB's 100 items.
 * Each unit (a record with its counters, guards and tokens) stays within one transaction, so a
 * failure never leaves a record without its counters; counter changes of one transaction are
 * merged per counter (table.ts), which is counted before packing.
 */
export async function commitAll(units: ReadonlyArray<readonly TableWrite[]>): Promise<void> {
  let batch: TableWrite[] = [];
  for (const unit of units) {
    const next = [...batch, ...unit];
    if (batch.length > 0 && mergedCounterWrites(next).length > 100) {
      await transactWrite(batch);
      batch = [...unit];
    } else {
      batch = next;
    }
  }
  if (batch.length > 0) await transactWrite(batch);
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
