/**
 * What every operation knows about the request it serves: ids for correlation and, on
 * authenticated routes, the actor (shared/auth/actor.ts) acting in its workspace.
 */
import type { Actor } from '../auth/actor.ts';

export type { Principal } from '../auth/actor.ts';

export interface RequestContext {
  requestId: string;
  correlationId: string;
  /** Public origin of the API, for absolute Location headers. */
  baseUrl: string;
}

/** An authenticated request: the actor, plus what only HTTP needs (the base URL). */
export interface AuthenticatedContext extends RequestContext, Actor {}
