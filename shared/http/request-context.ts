/**
 * What every operation knows about the request it serves: ids for correlation and, on
 * authenticated routes, the principal acting in its workspace.
 */
import type { Grant } from '../auth/grants.ts';

export interface Principal {
  id: string;
  kind: 'user' | 'service_account';
  workspaceId: string;
  roles: readonly string[];
  grants: ReadonlySet<Grant>;
}

export interface RequestContext {
  requestId: string;
  correlationId: string;
  /** Public origin of the API, for absolute Location headers. */
  baseUrl: string;
}

export interface AuthenticatedContext extends RequestContext {
  principal: Principal;
  workspaceId: string;
}
