/**
 * Creating (or re-applying) a workspace with its realm, users and API clients. Ids are derived
 * from stable names (UUIDv5), so applying the same description twice changes nothing but what
 * changed in it: the local seed relies on that, and the admin control plane will too.
 */
import { v5 as uuidv5 } from 'uuid';
import { evictAuthCache } from '../../auth/authenticate.ts';
import { hashPassword } from '../../auth/password-hash.ts';
import { adminRealm, isWorkspaceRealm } from '../../auth/realm-name.ts';
import {
  clientWrite,
  commitAll,
  credentialWrite,
  emailGuardWrite,
  getWorkspace,
  listPrincipals,
  ownerWrite,
  type PrincipalRecord,
  principalWrites,
  realmWrite,
  type WorkspaceRecord,
  type WorkspaceStatus,
  workspaceWrites,
} from '../../data/directory.store.ts';
import { isIndexed, type TableWrite } from '../../data/table.ts';

const namespace = '6f9d1c1e-3b0a-4f5e-9d43-7a1c2b3d4e5f';

export interface WorkspaceSpec {
  name: string;
  realm: string;
  status: WorkspaceStatus;
  users: Array<{ email: string; password?: string; firstname: string; lastname: string; roles: string[] }>;
  clients: Array<{ client_id: string; client_secret: string; roles: string[]; redirect_uris?: string[] }>;
}

export const workspaceIdOf = (name: string) => uuidv5(`workspace:${name}`, namespace);
export const userIdOf = (workspaceId: string, email: string) =>
  uuidv5(`user:${workspaceId}:${email.toLowerCase()}`, namespace);
export const serviceAccountIdOf = (workspaceId: string, clientId: string) =>
  uuidv5(`service-account:${workspaceId}:${clientId}`, namespace);

/** Whether a stored record (indexed for the lists already) holds these values already. */
function unchanged(before: object | undefined, fields: object): boolean {
  if (!before || !isIndexed(before)) return false;
  const stored = before as Record<string, unknown>;
  return Object.entries(fields).every(
    ([key, value]) => JSON.stringify(stored[key]) === JSON.stringify(value),
  );
}

export async function provisionWorkspace(spec: WorkspaceSpec): Promise<WorkspaceRecord> {
  if (!isWorkspaceRealm(spec.realm)) {
    throw new Error(
      `Workspace "${spec.name}": realm "${spec.realm}" is not usable (${adminRealm} is reserved).`,
    );
  }
  const now = new Date().toISOString();
  const id = workspaceIdOf(spec.name);
  const existing = await getWorkspace(id);
  const workspace: WorkspaceRecord = {
    id,
    name: spec.name,
    realm: spec.realm,
    status: spec.status,
    created_at: existing?.created_at ?? now,
    updated_at: now,
    lock_version: existing ? existing.lock_version + 1 : 0,
  };
  // Re-applying an unchanged description writes nothing: no new versions at every start.
  const units: TableWrite[][] = [
    unchanged(existing, { name: spec.name, realm: spec.realm, status: spec.status })
      ? [realmWrite(spec.realm)]
      : [...workspaceWrites(workspace, existing), realmWrite(spec.realm)],
  ];
  // One Query for the principals that already exist, not a GetItem per user and client.
  const existingPrincipals = new Map((await listPrincipals(id)).map((p) => [p.id, p]));

  type Fields = Omit<
    PrincipalRecord,
    'id' | 'workspace_id' | 'created_at' | 'updated_at' | 'lock_version' | 'status'
  >;
  /** The principal's writes, or none when it is stored with these fields already. */
  const principalUnit = (principalId: string, fields: Fields): TableWrite[] => {
    const before = existingPrincipals.get(principalId);
    return unchanged(before, fields) ? [] : principalWrites(principal(principalId, fields), before);
  };
  const principal = (principalId: string, fields: Fields): PrincipalRecord => {
    const before = existingPrincipals.get(principalId);
    return {
      ...before,
      ...fields,
      id: principalId,
      workspace_id: id,
      status: before?.status ?? 'ACTIVE',
      created_at: before?.created_at ?? now,
      updated_at: now,
      lock_version: before ? before.lock_version + 1 : 0,
    };
  };

  for (const user of spec.users) {
    const userId = userIdOf(id, user.email);
    const email = user.email.toLowerCase();
    const before = existingPrincipals.get(userId);
    const unit: TableWrite[] = [];
    units.push(unit);
    const fields: Fields = {
      kind: 'user',
      roles: user.roles,
      email,
      firstname: user.firstname,
      lastname: user.lastname,
      skill_ids: before?.skill_ids ?? [],
      tag_ids: before?.tag_ids ?? [],
      can_resend_set_password_email: user.password ? false : (before?.can_resend_set_password_email ?? true),
    };
    const writes = principalUnit(userId, fields);
    if (writes.length > 0) {
      unit.push(...writes, emailGuardWrite(spec.realm, { email, workspace_id: id, user_id: userId }, 'put'));
    }
    // A seeded password is (re)applied; a user without one keeps whatever they set themselves.
    if (user.password) {
      unit.push(
        credentialWrite({
          user_id: userId,
          workspace_id: id,
          password_hash: await hashPassword(user.password),
          failed_logins: 0,
          updated_at: now,
        }),
      );
    }
  }
  for (const client of spec.clients) {
    const principalId = serviceAccountIdOf(id, client.client_id);
    units.push([
      ...principalUnit(principalId, {
        kind: 'service_account',
        roles: client.roles,
        client_id: client.client_id,
      }),
      clientWrite(spec.realm, {
        clientId: client.client_id,
        clientSecret: client.client_secret,
        workspaceId: id,
        principalId,
        redirectUris: client.redirect_uris ?? [],
      }),
    ]);
  }
  // The owner the admin plane shows: the first seeded owner.
  const owner = spec.users.find((user) => user.roles.includes('owner'));
  if (owner) units.push([ownerWrite(id, userIdOf(id, owner.email))]);
  await commitAll(units);
  evictAuthCache(id);
  return workspace;
}
