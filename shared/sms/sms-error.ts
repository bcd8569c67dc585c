/**
 * The one error of the SMS port (sms-sender.ts): the message could not be handed over for
 * delivery (SNS refused or did not answer in time, the SMS folder cannot be written). A
 * dependency outage, answered 503 with Retry-After (http/error-mapper.ts), never a 500. Apart
 * from the adapters so that the error mapper, which every handler loads, does not load the SNS
 * client.
 */
export class SmsError extends Error {
  readonly code = 'unavailable' as const;

  constructor(options: { cause: unknown }) {
    super('the text message could not be handed over for delivery', options);
    this.name = 'SmsError';
  }
}
