/**
 * The fixed roles of every workspace (API-DECISIONS.md: owner, admin, dispatcher, technician,
 * driver) with stable ids: UUIDv5 of the role name, so a role id means the same role in every
 * workspace and environment, and code can map id ↔ name without a lookup.
 */
import { v5 as uuidv5 } from 'uuid';
import { type Grant, type RoleName, roleGrants, roleNames } from '../../auth/grants.ts';

const namespace = 'b7e1c0a4-5d2f-4c8e-9a31-2f6d8e4b7c10';

export function roleIdOf(name: RoleName): string {
  return uuidv5(`role:${name}`, namespace);
}

const namesById = new Map<string, RoleName>(roleNames.map((name) => [roleIdOf(name), name]));

/** The role name of an id, or undefined when no role has it. */
export function roleNameOf(id: string): RoleName | undefined {
  return namesById.get(id.toLowerCase());
}

/** The role a name stands for, matched case-insensitively (`Dispatcher` → `dispatcher`). */
export function roleNamed(name: string): RoleName | undefined {
  const wanted = name.trim().toLowerCase();
  return roleNames.find((role) => role === wanted);
}

export interface Role {
  id: string;
  name: RoleName;
  grants: Grant[];
}

/** Every role with its grants, in the order of the catalog (owner first). */
export function listRoles(): Role[] {
  return roleNames.map((name) => ({ id: roleIdOf(name), name, grants: [...roleGrants[name]] }));
}
