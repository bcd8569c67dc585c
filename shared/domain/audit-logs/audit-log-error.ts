/** The audit log: the error this module throws, and its codes (domain-error.ts). */
import { type CommonErrorCode, DomainError } from '../domain-error.ts';

export type AuditLogErrorCode = CommonErrorCode;

export class AuditLogError extends DomainError<'audit-logs'> {
  readonly module = 'audit-logs';
}
