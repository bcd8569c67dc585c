/** Skill definitions: the error this module throws, and its codes (domain-error.ts). */
import { type CommonErrorCode, DomainError } from '../domain-error.ts';

export type SkillErrorCode = CommonErrorCode;

export class SkillError extends DomainError<'skills'> {
  readonly module = 'skills';
}
