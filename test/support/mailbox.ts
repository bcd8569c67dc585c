/**
 * The local stack's outgoing mail: one .eml file per message in `${DATA_DIR}/mail`
 * (shared/mail/mailer.ts), read as a user reads their inbox.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { inject } from 'vitest';
import { eventually } from './api.ts';

/** The messages to `to`, oldest first. */
export async function mailsTo(to: string): Promise<string[]> {
  const dir = join(inject('dataDir'), 'mail');
  const files = await readdir(dir).catch(() => [] as string[]);
  const texts = await Promise.all(files.sort().map((file) => readFile(join(dir, file), 'utf8')));
  return texts.filter((text) => text.includes(`To: ${to}\r\n`));
}

/** The set-password link of the latest message to `to` (waits for the message). */
export async function setPasswordLinkFor(to: string): Promise<URL> {
  return eventually(async () => {
    const mails = await mailsTo(to);
    const link = /https?:\/\/\S+\/realms\/[^/\s]+\/set-password\?\S+/.exec(mails.at(-1) ?? '')?.[0];
    if (!link) throw new Error(`no set-password link mailed to ${to}`);
    return new URL(link);
  });
}
