/** Realm names appear in issuer URLs and keys: lower-case letters, digits and hyphens. */
export const realmNamePattern = /^[a-z0-9][a-z0-9-]{0,62}$/;
export const defaultRealm = 'shared';

/**
 * The admin control plane's realm (`/admin-v1`): its clients act for no workspace, so its
 * tokens are refused by every workspace route and only its tokens pass the admin routes.
 * No workspace may use it.
 */
export const adminRealm = 'fsm-admin';

/** Whether a workspace may live in this realm: a well-formed name that is not reserved. */
export function isWorkspaceRealm(realm: string): boolean {
  return realmNamePattern.test(realm) && realm !== adminRealm;
}
