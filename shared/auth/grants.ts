/**
 * The grant catalog and the baseline role → grant mapping (API-DECISIONS.md, "Baseline role
 * grants"). Access is decided by these grants, never by token scopes. A grant is
 * `<resource>:<action>`; `update` covers create, update and delete of that resource unless a
 * finer grant exists (webhooks:create).
 *
 * `…:own` grants are the narrow writes of field work: technicians and drivers "write only their
 * own work items". A route that a field worker may call requires the `:own` grant (the kernel
 * checks it, as every route grant); the domain service then lets a holder of the full grant
 * (`cases:update`) write any record and any field, and a holder of the `:own` grant alone only
 * the fields a field worker reports, on records that are theirs (shared/domain/own-work.ts).
 * So every role that writes such a record holds the `:own` grant too.
 */
export const grantCatalog = [
  'areas:read',
  'areas:update',
  'audit-logs:read',
  'billing:read',
  'billing:update',
  'cases:read',
  'cases:update',
  'cases:update:own',
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
  'scheduling:read',
  'scheduling:update',
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
  'tours:update:own',
  'users:read',
  'users:update',
  'vehicles:read',
  'vehicles:update',
  'vehicles:location:update:own',
  'webhooks:read',
  'webhooks:create',
  'webhooks:update',
] as const;

export type Grant = (typeof grantCatalog)[number];

export const roleNames = ['owner', 'admin', 'dispatcher', 'technician', 'driver'] as const;
export type RoleName = (typeof roleNames)[number];

/**
 * What technicians and drivers need to do their own work: read it, comment on it, report its
 * progress (the status of their cases and tours) and where the vehicle they drive is.
 */
const fieldWorker: readonly Grant[] = [
  'areas:read',
  'cases:read',
  'cases:update:own',
  'comments:read',
  'comments:create',
  'custom-objects:definitions:read',
  'custom-objects:instances:read',
  'devices:read',
  'skills:read',
  'tags:read',
  'tenant:read',
  'tours:read',
  'tours:update:own',
  'vehicles:read',
  'vehicles:location:update:own',
];

export const roleGrants: Record<RoleName, readonly Grant[]> = {
  owner: grantCatalog,
  admin: grantCatalog.filter((g) => g !== 'tenant:ownership:update'),
  dispatcher: [
    'areas:read',
    'areas:update',
    'cases:read',
    'cases:update',
    'cases:update:own',
    'comments:read',
    'comments:create',
    'comments:update',
    'custom-objects:definitions:read',
    'custom-objects:instances:read',
    'custom-objects:instances:update',
    'devices:read',
    'devices:update',
    'roles:read',
    'scheduling:read',
    'scheduling:update',
    'skills:read',
    'tags:read',
    'tenant:read',
    'tours:read',
    'tours:update',
    'tours:update:own',
    'users:read',
    'vehicles:read',
    'vehicles:update',
    'vehicles:location:update:own',
  ],
  technician: fieldWorker,
  driver: fieldWorker,
};

export function isRoleName(name: string): name is RoleName {
  return (roleNames as readonly string[]).includes(name);
}

/** One set per combination of roles: every principal of it shares it (read-only). */
const grantSets = new Map<string, ReadonlySet<Grant>>();
/** Combinations kept; role lists are a handful per workspace, never a growing set. */
const keptCombinations = 256;

/**
 * The union of the grants of the given roles; unknown role names grant nothing. Shared between
 * callers with the same roles: an event-stream connection keeps its principal for its life, and
 * a set of forty grants per connection was a fifth of what an idle connection cost.
 */
export function grantsOfRoles(roles: readonly string[]): ReadonlySet<Grant> {
  const key = [...roles].sort().join(' ');
  const known = grantSets.get(key);
  if (known) return known;
  const grants = new Set<Grant>();
  for (const role of roles) {
    if (isRoleName(role)) for (const grant of roleGrants[role]) grants.add(grant);
  }
  if (grantSets.size < keptCombinations) grantSets.set(key, grants);
  return grants;
}
