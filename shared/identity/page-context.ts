/** What the provider's own pages (login, set-password) need of their realm. */
import type { Provider } from 'oidc-provider';
import type { AccountService } from './accounts.ts';
import type { FormTokens } from './csrf.ts';
import type { IdentityDirectory } from './identity-directory.ts';

export interface PageContext {
  realm: string;
  /** `/realms/{realm}`: the public path the pages live under. */
  issuerPath: string;
  provider: Provider;
  directory: IdentityDirectory;
  accounts: AccountService;
  forms: FormTokens;
  /** FSM_TRUSTED_PROXY_HOPS (client-address.ts). */
  trustedProxyHops: number;
}
