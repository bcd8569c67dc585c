/** Realm names appear in issuer URLs and keys: lower-case letters, digits and hyphens. */
export const realmNamePattern = /^[a-z0-9][a-z0-9-]{0,62}$/;
export const defaultRealm = 'shared';
