/**
 * The cursor of a pull (docs/offline-sync.md, "Pull"): a position in the user's sync feed, never a
 * clock. Opaque to the app and signed (HMAC-SHA256), so it cannot be forged or moved to another
 * user, installation or workspace; one past the tombstone horizon asks for a full pull.
 *
 * Text: base64url(JSON) + "." + base64url(HMAC of that JSON).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface SyncCursor {
  workspaceId: string;
  userId: string;
  installationId: string;
  /** The last feed position sent (0: none yet). */
  seq: number;
  /** The day (YYYY-MM-DD, the workspace's) the scope's window was computed for. */
  day: string;
  /**
   * Since when every feed entry after `seq` was written (epoch ms): when `seq` was the head. Pages
   * of one pull keep the first page's; a cursor of a pull that ended is the time of that head.
   */
  issuedAt: number;
  /** A full pull under way: its phase, the last key sent in it, and the head it started at. */
  full?: { phase: number; after?: string; head: number };
  /** The move of the window to a later day under way: the last scope key sent. */
  move?: string;
}

/** Deletes and evicts are kept this long: an older cursor may have missed one. */
export const tombstoneHorizonMs = 30 * 24 * 3600 * 1000;

export type CursorVerdict =
  | { ok: SyncCursor }
  /** Not a cursor of this service (malformed or forged): a 422 at `#/cursor`. */
  | { invalid: string }
  /** A cursor of another user, installation or workspace, or past the horizon: 409 resync_required. */
  | { resync: string };

const sign = (payload: string, key: Buffer) => createHmac('sha256', key).update(payload).digest();

export function sealCursor(cursor: SyncCursor, key: Buffer): string {
  const payload = Buffer.from(JSON.stringify(cursor)).toString('base64url');
  return `${payload}.${sign(payload, key).toString('base64url')}`;
}

/** The cursor, if it is this service's, for this caller, and within the horizon at `now`. */
export function openCursor(
  text: string,
  key: Buffer,
  caller: Pick<SyncCursor, 'workspaceId' | 'userId' | 'installationId'>,
  now: number,
): CursorVerdict {
  const [payload, signature, ...rest] = text.split('.');
  if (!payload || !signature || rest.length > 0) return { invalid: 'not a cursor of this service' };
  const expected = sign(payload, key);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { invalid: 'not a cursor of this service' };
  }
  let cursor: SyncCursor;
  try {
    cursor = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as SyncCursor;
  } catch {
    return { invalid: 'not a cursor of this service' };
  }
  if (
    cursor.workspaceId !== caller.workspaceId ||
    cursor.userId !== caller.userId ||
    cursor.installationId !== caller.installationId
  ) {
    return { resync: 'the cursor was issued to another user or installation' };
  }
  if (now - cursor.issuedAt > tombstoneHorizonMs) {
    return { resync: 'the cursor is older than the 30-day horizon of deletes' };
  }
  return { ok: cursor };
}
