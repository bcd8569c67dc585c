/** Webhook endpoints, tests and deliveries: the error this module throws, and its codes (domain-error.ts). */
import { type CommonErrorCode, DomainError } from '../domain-error.ts';

export type WebhookErrorCode = CommonErrorCode;

export class WebhookError extends DomainError<'webhooks'> {
  readonly module = 'webhooks';
}
