/**
 * Set-password links: an invited user (or one whose owner asks for a reminder) gets an e-mail
 * with a one-time link to the identity provider's set-password page. The link carries
 * `<workspace_id>.<user_id>.<secret>`; only the SHA-256 of the secret is stored, on the
 * user's credential item, with its expiry. A newer link replaces the older one.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { config } from '../../config.ts';
import { mailer } from '../../mail/mailer.ts';
import { type CredentialRecord, credentialStore } from './credential.store.ts';

/** How long a set-password link works (FSM_SET_PASSWORD_LINK_HOURS, default 72). */
export const linkLifetimeHours = () => Number(process.env.FSM_SET_PASSWORD_LINK_HOURS ?? 72);

export interface Invitee {
  id: string;
  email: string;
  firstname?: string | undefined;
}

export async function sendSetPasswordInvitation(params: {
  workspaceId: string;
  realm: string;
  user: Invitee;
  /** The caller's Origin header: where the page offers to continue after the password is set. */
  origin?: string | undefined;
  /** invitation: a new user; reminder: a new link; recovery: the user was unblocked. */
  kind: 'invitation' | 'reminder' | 'recovery';
}): Promise<void> {
  const { workspaceId, realm, user } = params;
  const secret = randomBytes(32).toString('base64url');
  const now = new Date();
  const credentials = credentialStore.of(workspaceId);
  const existing = await credentials.get(user.id);
  const credential: CredentialRecord = {
    ...existing,
    user_id: user.id,
    workspace_id: workspaceId,
    set_password_token_hash: sha256(secret),
    set_password_token_expires_at: new Date(now.getTime() + linkLifetimeHours() * 3600_000).toISOString(),
    updated_at: now.toISOString(),
  };
  await credentials.put(credential);

  const link = new URL(`${config().authUrl}/realms/${encodeURIComponent(realm)}/set-password`);
  link.searchParams.set('token', `${workspaceId}.${user.id}.${secret}`);
  const origin = usableOrigin(params.origin);
  if (origin) link.searchParams.set('continue', origin);
  const greeting = user.firstname ? `Hello ${user.firstname},` : 'Hello,';
  const opening = {
    invitation: 'you have been invited to a field-service workspace.',
    reminder: 'here is a new link to set your password.',
    recovery:
      'your account was blocked after too many failed sign-ins and has been unblocked. Your password works ' +
      'again; if you forgot it, set a new one.',
  }[params.kind];
  const subject = {
    invitation: 'Your invitation: set your password',
    reminder: 'Set your password',
    recovery: 'Your account was unblocked',
  }[params.kind];
  await mailer().send({
    to: user.email,
    subject,
    text: [
      greeting,
      '',
      opening,
      `Set your password here (the link works once, for ${linkLifetimeHours()} hours):`,
      '',
      link.toString(),
      '',
      `Sign in afterwards with your e-mail address ${user.email}.`,
    ].join('\n'),
  });
}

/** The parts of a link token, or undefined when it is not one of ours. */
export function parseSetPasswordToken(
  token: string,
): { workspaceId: string; userId: string; secret: string } | undefined {
  const match = /^([0-9a-f-]{36})\.([0-9a-f-]{36})\.([A-Za-z0-9_-]{20,100})$/.exec(token);
  if (!match) return undefined;
  return { workspaceId: match[1] as string, userId: match[2] as string, secret: match[3] as string };
}

/** Whether the secret of a link matches the credential's pending link and has not expired. */
export function setPasswordTokenMatches(credential: CredentialRecord | undefined, secret: string): boolean {
  if (!credential?.set_password_token_hash || !credential.set_password_token_expires_at) return false;
  if (Date.parse(credential.set_password_token_expires_at) <= Date.now()) return false;
  const expected = Buffer.from(credential.set_password_token_hash, 'base64url');
  const actual = Buffer.from(sha256(secret), 'base64url');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

function sha256(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

/** Only an http(s) origin, nothing else of what the header held. */
function usableOrigin(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const url = URL.parse(value);
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) return undefined;
  return url.origin;
}
