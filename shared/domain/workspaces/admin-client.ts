/**
 * The admin control plane's client: one client-credentials client in the reserved realm
 * `fsm-admin`. It acts for no workspace (`workspaceId` = the realm name, for which no
 * workspace record exists), so its tokens open only `/admin-v1`
 * (shared/auth/admin-authenticate.ts). Written by the local stack at every start
 * (shared/local-stack/admin-bootstrap.ts) and on AWS by a custom resource at deploy time
 * (lib/admin-client-resource.handler.ts).
 */
import { randomBytes } from 'node:crypto';
import { adminRealm } from '../../auth/realm-name.ts';
import { clientWrite, commitAll, realmWrite } from '../../data/directory.store.ts';
import { serviceAccountIdOf } from './workspace-provisioning.ts';

export const defaultAdminClientId = 'fsm-admin';
export const minimumAdminSecretLength = 16;

/** A fresh secret: 256 random bits, URL-safe. */
export function newAdminClientSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Write (or overwrite) the realm item and the admin client; idempotent. */
export async function writeAdminClient(clientId: string, clientSecret: string): Promise<void> {
  if (clientSecret.length < minimumAdminSecretLength) {
    throw new Error(`the admin client secret must be at least ${minimumAdminSecretLength} characters long`);
  }
  await commitAll([
    [
      realmWrite(adminRealm),
      clientWrite(adminRealm, {
        clientId,
        clientSecret,
        workspaceId: adminRealm,
        principalId: serviceAccountIdOf(adminRealm, clientId),
        redirectUris: [],
      }),
    ],
  ]);
}
