/**
 * The SMS port: how the service sends text messages (a device's setup link, sent to the phone
 * that will run the field-service app). The twin of the mail port (shared/mail/mailer.ts), with
 * two adapters:
 *
 * - file (local stack): each message becomes a `.txt` file in FSM_SMS_DIR (DATA_DIR/sms), so a
 *   developer or a test can open it and follow its link;
 * - Amazon SNS (AWS): a transactional SMS published straight to the phone number.
 *
 * `smsSender()` picks the adapter from the configuration once per container. Messages hold
 * secrets (enrollment links): adapters never log the text, only the recipient.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PublishCommand } from '@aws-sdk/client-sns';
import { snsClient } from '../aws/clients.ts';
import { logger } from '../observability/logger.ts';
import { SmsError } from './sms-error.ts';

export { SmsError } from './sms-error.ts';

export interface SmsMessage {
  /** The recipient in E.164 (`+4915112345678`), as SNS requires. */
  to: string;
  /** Plain text; one message, so keep it short (SNS splits long texts into several parts). */
  text: string;
}

export interface SmsSender {
  /** Hands the message over for delivery; rejects with SmsError when it cannot. */
  send(message: SmsMessage): Promise<void>;
}

/** An adapter whose failures, whatever they are, reach callers as SmsError. */
export function reportingFailures(adapter: SmsSender): SmsSender {
  return {
    async send(message) {
      try {
        await adapter.send(message);
      } catch (cause) {
        throw new SmsError({ cause });
      }
    },
  };
}

/** Writes `<time>-<id>.txt` files into `dir`; `onSent` hears where each one went. */
export function fileSmsSender(dir: string, onSent?: (file: string, message: SmsMessage) => void): SmsSender {
  return {
    async send(message) {
      await mkdir(dir, { recursive: true });
      const file = join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.txt`);
      const content = [`To: ${message.to}`, `Date: ${new Date().toUTCString()}`, '', message.text, ''].join(
        '\n',
      );
      // Owner-only: the text holds a live enrollment link.
      await writeFile(file, content, { mode: 0o600 });
      onSent?.(file, message);
    },
  };
}

export function snsSmsSender(client = snsClient()): SmsSender {
  return {
    async send(message) {
      await client.send(
        new PublishCommand({
          PhoneNumber: message.to,
          Message: message.text,
          // Transactional: delivered with priority, and to numbers that opted out of promotions.
          MessageAttributes: {
            'AWS.SNS.SMS.SMSType': { DataType: 'String', StringValue: 'Transactional' },
          },
        }),
      );
    },
  };
}

let current: SmsSender | undefined;

/** The configured SMS sender: files under FSM_SMS_DIR when set, SNS otherwise. */
export function smsSender(): SmsSender {
  if (current) return current;
  const dir = process.env.FSM_SMS_DIR;
  current = reportingFailures(
    dir
      ? // Recipient and file only: the text holds a secret enrollment link.
        fileSmsSender(dir, (file, message) => logger.info('sms written', { to: message.to, file }))
      : snsSmsSender(),
  );
  return current;
}

/** Replace the SMS sender (tests, the local stack) or forget it so the next call reads the configuration again. */
export function setSmsSender(next: SmsSender | undefined): void {
  current = next ? reportingFailures(next) : undefined;
}
