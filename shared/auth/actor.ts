/**
 * Who is acting: the caller that domain services, events and the audit log see, whatever the
 * transport (REST, GraphQL, the event stream, a consumer acting for a request). The HTTP kernel's
 * context is one (shared/http/request-context.ts extends it); the domain never sees more of the
 * request than this.
 */
import type { Grant } from './grants.ts';

/** The authenticated identity: a user or a client's service account, in one workspace. */
export interface Principal {
  id: string;
  kind: 'user' | 'service_account';
  workspaceId: string;
  roles: readonly string[];
  grants: ReadonlySet<Grant>;
}

export interface Actor {
  /** The workspace every read and write of the action is scoped to. */
  workspaceId: string;
  principal: Principal;
  /** The request the action belongs to: events and audit entries carry both ids. */
  requestId: string;
  correlationId: string;
}
