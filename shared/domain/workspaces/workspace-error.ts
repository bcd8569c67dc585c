/** Workspaces (admin plane): the error this module throws, and its codes (domain-error.ts). */
import { type CommonErrorCode, DomainError } from '../domain-error.ts';

export type WorkspaceErrorCode = CommonErrorCode;

export class WorkspaceError extends DomainError<'workspaces'> {
  readonly module = 'workspaces';
}
