/**
 * A permission entry of a PROTECTED type's matrix (instance-access.ts says what it grants).
 * Apart from the access checks so that the instance schemas, which the route table loads, do
 * not load the data layer.
 */
export const permissionLevels = ['read', 'write'] as const;
export const principalTypes = ['everyone', 'role'] as const;

export interface PermissionEntry {
  principal_type: (typeof principalTypes)[number];
  role_name?: string;
  level: (typeof permissionLevels)[number];
}
