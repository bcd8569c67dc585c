/**
 * The identity provider's port to the rest of the service: which realms exist and which OIDC
 * clients they hold. The provider never stores clients itself; it asks this directory on every
 * client authentication, so a client created, rotated or removed elsewhere takes effect at once
 * (caching, if any, is the implementation's business and must stay short-lived).
 */

/** One OIDC client of a realm, as the identity provider needs it. */
export interface ClientRecord {
  /** The `client_id`, unique within its realm (as in Keycloak). */
  clientId: string;
  /**
   * The client secret in clear text, compared in constant time against what the client sends
   * (client_secret_basic or client_secret_post). Every client is confidential: an empty secret
   * makes the client unusable. Never log it.
   */
  clientSecret: string;
  /** The workspace (tenant) the client belongs to; becomes the token's `tenant_id` claim. */
  workspaceId: string;
  /**
   * The principal (service account) the client acts as in the client-credentials grant;
   * becomes the `sub` of its access tokens. Service accounts never appear in user lists.
   */
  principalId: string;
  /**
   * Absolute redirect URIs for the authorization-code flow. Empty: the client may only use the
   * client-credentials grant. Non-empty: authorization_code and refresh_token are allowed too.
   */
  redirectUris: string[];
}

export interface IdentityDirectory {
  /**
   * Whether the realm exists. Called for every request under `/realms/{realm}/`; false makes
   * the provider answer 404 without creating anything for that realm.
   */
  realmExists(realm: string): Promise<boolean>;
  /**
   * The client with this `client_id` in this realm, or undefined when there is none (the token
   * endpoint then answers 401 invalid_client). Must not return clients of other realms.
   */
  findClient(realm: string, clientId: string): Promise<ClientRecord | undefined>;
}
