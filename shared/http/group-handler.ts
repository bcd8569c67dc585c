/**
 * The kernel of every operation group with bearer or admin routes: operation-kernel.ts with the
 * token authenticators wired in. Kept apart so the kernel itself imports no authenticator (and
 * so no token verifier, directory store or DynamoDB client) for groups that need none.
 */
import { authenticateAdminOrThrow } from '../auth/admin-authenticate.ts';
import { authenticateOrThrow } from '../auth/authenticate.ts';
import type { ApiHandler } from './api-gateway.ts';
import { createKernelHandler, type GroupImplementation, type KernelOptions } from './operation-kernel.ts';
import type { RouteSpec } from './route-spec.ts';

export function createGroupHandler<R extends RouteSpec>(
  routes: readonly R[],
  implementation: GroupImplementation<R>,
  options: Pick<KernelOptions, 'authenticateDevice'> = {},
): ApiHandler {
  return createKernelHandler(routes, implementation, {
    ...options,
    authenticateBearer: authenticateOrThrow,
    authenticateAdmin: authenticateAdminOrThrow,
  });
}
