/**
 * The one error of the mail port (mailer.ts): the message could not be handed over for delivery
 * (SES refused or did not answer in time, the mail folder cannot be written). A dependency
 * outage, answered 503 with Retry-After (http/error-mapper.ts), never a 500. Apart from the
 * adapters so that the error mapper, which every handler loads, does not load the SES client.
 */
export class MailError extends Error {
  readonly code = 'unavailable' as const;

  constructor(options: { cause: unknown }) {
    super('the message could not be handed over for delivery', options);
    this.name = 'MailError';
  }
}
