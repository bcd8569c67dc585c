/**
 * The mail port: how the service sends e-mail (invitations, set-password links). Two adapters:
 *
 * - file (local stack): each message becomes an RFC 5322 `.eml` file in FSM_MAIL_DIR
 *   (DATA_DIR/mail), so a developer or a test can open it and follow its link;
 * - Amazon SES v2 (AWS): sent from FSM_MAIL_FROM.
 *
 * `mailer()` picks the adapter from the configuration once per container. Messages hold
 * secrets (set-password links): adapters never log bodies, only recipient and subject.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SendEmailCommand } from '@aws-sdk/client-sesv2';
import { sesClient } from '../aws/clients.ts';
import { config } from '../config.ts';
import { logger } from '../observability/logger.ts';
import { MailError } from './mail-error.ts';

export { MailError } from './mail-error.ts';

export interface MailMessage {
  to: string;
  subject: string;
  /** Plain-text body; the only body we send, so every link is visible as is. */
  text: string;
}

export interface Mailer {
  /** Hands the message over for delivery; rejects with MailError when it cannot. */
  send(message: MailMessage): Promise<void>;
}

/** An adapter whose failures, whatever they are, reach callers as MailError. */
export function reportingFailures(adapter: Mailer): Mailer {
  return {
    async send(message) {
      try {
        await adapter.send(message);
      } catch (cause) {
        throw new MailError({ cause });
      }
    },
  };
}

/** Writes `<time>-<id>.eml` files into `dir`; `onSent` hears where each one went. */
export function fileMailer(
  dir: string,
  from: string,
  onSent?: (file: string, message: MailMessage) => void,
): Mailer {
  return {
    async send(message) {
      await mkdir(dir, { recursive: true });
      const id = randomUUID();
      const file = join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${id}.eml`);
      const eml = [
        `From: ${from}`,
        `To: ${message.to}`,
        `Subject: ${encodeHeader(message.subject)}`,
        `Date: ${new Date().toUTCString()}`,
        `Message-ID: <${id}@fsm.local>`,
        'MIME-Version: 1.0',
        'Content-Type: text/plain; charset=utf-8',
        'Content-Transfer-Encoding: 8bit',
        '',
        message.text,
        '',
      ].join('\r\n');
      await writeFile(file, eml, { mode: 0o600 });
      onSent?.(file, message);
    },
  };
}

export function sesMailer(from: string, client = sesClient()): Mailer {
  return {
    async send(message) {
      await client.send(
        new SendEmailCommand({
          FromEmailAddress: from,
          Destination: { ToAddresses: [message.to] },
          Content: {
            Simple: {
              Subject: { Data: message.subject, Charset: 'UTF-8' },
              Body: { Text: { Data: message.text, Charset: 'UTF-8' } },
            },
          },
        }),
      );
    },
  };
}

let current: Mailer | undefined;

/** The configured mailer: files under FSM_MAIL_DIR when set, SES otherwise. */
export function mailer(): Mailer {
  if (current) return current;
  const dir = process.env.FSM_MAIL_DIR;
  const from = process.env.FSM_MAIL_FROM ?? `no-reply@${new URL(config().baseUrl).hostname}`;
  current = reportingFailures(
    dir
      ? fileMailer(dir, from, (file, message) =>
          logger.info('mail written', { to: message.to, subject: message.subject, file }),
        )
      : sesMailer(from),
  );
  return current;
}

/** Replace the mailer (tests, the local stack) or forget it so the next call reads the configuration again. */
export function setMailer(next: Mailer | undefined): void {
  current = next ? reportingFailures(next) : undefined;
}

/** RFC 2047 for non-ASCII subjects. */
function encodeHeader(value: string): string {
  return /^[\x20-\x7e]*$/.test(value) ? value : `=?UTF-8?B?${Buffer.from(value).toString('base64')}?=`;
}
