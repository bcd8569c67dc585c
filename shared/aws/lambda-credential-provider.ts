/**
 * Stands in for `@aws-sdk/credential-provider-node` in Lambda bundles (an esbuild alias, see
 * lib/bundling.ts). On Lambda the credentials are always in the environment; the default
 * chain would also bundle the SSO, INI, process, web-identity and IMDS providers with their
 * nested clients (about 90 KB minified) that never run there. Same exports, env-only.
 */
import { fromEnv } from '@aws-sdk/credential-provider-env';

export const defaultProvider = (_init?: unknown) => fromEnv();

/** The SDK asks these of memoized chains; environment credentials are refreshed by Lambda. */
export const credentialsWillNeedRefresh = () => false;
export const credentialsTreatedAsExpired = () => false;
