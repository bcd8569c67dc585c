/** Comments: the error this module throws, and its codes (domain-error.ts). */
import { type CommonErrorCode, DomainError } from '../domain-error.ts';

export type CommentErrorCode =
  | CommonErrorCode
  /** Only the author edits a comment's body. */
  | 'cannot-edit-others'
  /** Restore of a comment that is not deleted. */
  | 'cannot-restore-not-deleted'
  /** A reaction on a deleted comment. */
  | 'reaction-on-deleted-comment';

export class CommentError extends DomainError<'comments'> {
  readonly module = 'comments';
}
