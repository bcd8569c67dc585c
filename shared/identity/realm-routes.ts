/** Route paths inside a realm (`/realms/{realm}`), Keycloak's layout. */
export const realmRoutes = {
  authorization: '/protocol/openid-connect/auth',
  token: '/protocol/openid-connect/token',
  jwks: '/protocol/openid-connect/certs',
  userinfo: '/protocol/openid-connect/userinfo',
  introspection: '/protocol/openid-connect/token/introspect',
  revocation: '/protocol/openid-connect/revoke',
  end_session: '/protocol/openid-connect/logout',
  /** Ours, not oidc-provider's: the interaction (login) page, `/login/{uid}`. */
  login: '/login',
  /** Ours: the page of set-password links. */
  setPassword: '/set-password',
} as const;
