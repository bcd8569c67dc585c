/**
 * The grant catalog and the baseline role → grant mapping (API-DECISIONS.md, "Baseline role
 * grants"). Access is decided by these grants, never by token scopes. A grant is
 * `<resource>:<action>`; `update` covers create, update and delete of that resource unless a
 * finer grant exists (webhooks:create).
 */
export const grantCatalog = [
  'areas:read',
  'areas:update',
  'audit-logs:read',
  'billing:read',
  'billing:update',
  'cases:read',
  'cases:update',
  'comments:read',
  'comments:create',
  'comments:update',
  'custom-objects:definitions:read',
  'custom-objects:definitions:update',
  'custom-objects:definitions:edit-permissions',
  'custom-objects:instances:read',
  'custom-objects:instances:update',
  'devices:read',
  'devices:update',
  'roles:read',
  'settings:read',
  'settings:update',
  'skills:read',
  'skills:update',
  'tags:read',
  'tags:update',
  'tenant:read',
  'tenant:update',
  'tenant:ownership:update',
  'tours:read',
  'tours:update',
  'users:read',
  'users:update',
  'vehicles:read',
  'vehicles:update',
  'webhooks:read',
  'webhooks:create',
  'webhooks:update',
] as const;

export type Grant = (typeof grantCatalog)[number];

export const roleNames = ['owner', 'admin', 'dispatcher', 'technician', 'driver'] as const;
export type RoleName = (typeof roleNames)[number];

/** What technicians and drivers need to do their own work: read it, comment on it. */
const fieldWorker: readonly Grant[] = [
  'areas:read',
  'cases:read',
  'comments:read',
  'comments:create',
  'custom-objects:definitions:read',
  'custom-objects:instances:read',
  'devices:read',
  'skills:read',
  'tags:read',
  'tenant:read',
  'tours:read',
  'vehicles:read',
];

export const roleGrants: Record<RoleName, readonly Grant[]> = {
  owner: grantCatalog,
  admin: grantCatalog.filter((g) => g !== 'tenant:ownership:update'),
  dispatcher: [
    'areas:read',
    'areas:update',
    'cases:read',
    'cases:update',
    'comments:read',
    'comments:create',
    'comments:update',
    'custom-objects:definitions:read',
    'custom-objects:instances:read',
    'custom-objects:instances:update',
    'devices:read',
    'devices:update',
    'roles:read',
    'skills:read',
    'tags:read',
    'tenant:read',
    'tours:read',
    'tours:update',
    'users:read',
    'vehicles:read',
    'vehicles:update',
  ],
  technician: fieldWorker,
  driver: fieldWorker,
};

export function isRoleName(name: string): name is RoleName {
  return (roleNames as readonly string[]).includes(name);
}

/** The union of the grants of the given roles; unknown role names grant nothing. */
export function grantsOfRoles(roles: readonly string[]): Set<Grant> {
  const grants = new Set<Grant>();
  for (const role of roles) {
    if (isRoleName(role)) for (const grant of roleGrants[role]) grants.add(grant);
  }
  return grants;
}
