/**
 * Who sees which cases. Everyone with `cases:read` reads cases; those who only do field work
 * (API-DECISIONS.md: "technicians and drivers read theirs") see only the cases assigned to
 * them. The rule is on roles, as the decision is stated: a principal whose roles are all
 * technician or driver is a field worker; any other role (dispatcher, admin, owner) sees every
 * case of the workspace. The principal id is the token's `sub`, the id assignee_id holds.
 *
 * A case that is not theirs is answered exactly like a missing one (404), as a case of another
 * workspace is: its existence is not theirs to know either.
 */
import type { Principal } from '../../auth/actor.ts';

const fieldWorkRoles: ReadonlySet<string> = new Set(['technician', 'driver']);

/** The assignee a caller is limited to, or undefined when the caller sees every case. */
export function assigneeScopeOf(principal: Pick<Principal, 'id' | 'roles'>): string | undefined {
  const onlyFieldWork =
    principal.roles.length > 0 && principal.roles.every((role) => fieldWorkRoles.has(role));
  return onlyFieldWork ? principal.id.toLowerCase() : undefined;
}

/** Whether the caller may see this case. */
export function canSeeCase(
  principal: Pick<Principal, 'id' | 'roles'>,
  record: { assignee_id?: string | undefined },
): boolean {
  const scope = assigneeScopeOf(principal);
  return scope === undefined || record.assignee_id === scope;
}
