/**
 * What a committed change means to the sync feeds (docs/offline-sync.md, "The change log"): the
 * record it changed, whose scope held the record before the change and whose holds it after, on
 * which day, and which fields it changed. Read from the outbox event alone (its object and its
 * previous_attributes), so the sync indexer needs no read to know it, except for comments, whose
 * holders are their case's.
 *
 * Holders: a case is held by its assignee on the day of its scheduled_start (bookings and applies
 * assign a tour's cases to its driver); a tour by its driver on its date; a shift by its user on
 * the day it starts. Areas, tags and skills are the workspace's catalogs, which every user's scope
 * holds whole (a technician picks from them offline), and custom-object instances are the
 * workspace's, read by whoever the type's access lets: they go to the shared feed.
 */
import type { DomainEvent } from '../../events/domain-event.ts';

export const syncTypes = [
  'case',
  'tour',
  'shift',
  'comment',
  'area',
  'tag',
  'skill',
  'custom_object',
] as const;
export type SyncType = (typeof syncTypes)[number];

/**
 * The types a push writes: each through its REST collection. Custom-object instances are pulled,
 * not pushed: their REST path names the type's slug, which a mutation does not carry.
 */
export const pushTypes = ['case', 'tour', 'shift', 'comment', 'area', 'tag', 'skill'] as const;
export type PushType = (typeof pushTypes)[number];

/** The types a user's scope index holds by day. */
export const heldTypes = ['case', 'tour', 'shift'] as const;
export type HeldType = (typeof heldTypes)[number];

/** Types every user's scope holds whole: written to the shared feed. */
export const catalogTypes: ReadonlySet<SyncType> = new Set(['area', 'tag', 'skill', 'custom_object']);

export const isSyncType = (type: string): type is SyncType => (syncTypes as readonly string[]).includes(type);

/** A holder: the user whose scope holds the record, and on which day (YYYY-MM-DD, UTC). */
export interface Holding {
  userId: string;
  day: string;
}

export interface SyncSubject {
  type: SyncType;
  id: string;
  /** The record's lock_version after the change (-1 for records without one). */
  version: number;
  /** The change created the record. */
  created: boolean;
  deleted: boolean;
  before?: Holding;
  after?: Holding;
  /** Comments: the case whose holders hold them. */
  caseId?: string;
  /** Custom-object instances: their definition's id (their partition). */
  parent?: string;
  /** The fields the change set, for the merge by field of a later push. */
  changed: string[];
  /** When the change was made (epoch ms): the indexer's lag counts from it. */
  occurredAt: number;
}

type Fields = Record<string, unknown>;

const text = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : undefined);

/** Who holds a record as it is now, and on which day (cases, tours, shifts; others: nobody). */
export function holdingOf(type: SyncType, record: Fields): Holding | undefined {
  switch (type) {
    case 'case': {
      const userId = text(record.assignee_id);
      const start = text(record.scheduled_start);
      return userId && start ? { userId, day: start.slice(0, 10) } : undefined;
    }
    case 'tour': {
      const userId = text(record.driver_id);
      const date = text(record.date);
      return userId && date ? { userId, day: date } : undefined;
    }
    case 'shift': {
      const userId = text(record.user_id);
      const start = text(record.start);
      return userId && start ? { userId, day: start.slice(0, 10) } : undefined;
    }
    default:
      return undefined;
  }
}

/** The record as it was before the change: its object with the previous values put back. */
function beforeOf(object: Fields, previous: Fields | undefined): Fields {
  if (!previous) return object;
  const before = { ...object };
  for (const [key, value] of Object.entries(previous)) before[key] = value ?? undefined;
  return before;
}

/** The sync meaning of an event, or undefined when no synced record changed. */
export function syncSubjectOf(event: DomainEvent): SyncSubject | undefined {
  // Instances are `custom_object.<slug>` with events `custom_object.<slug>.<verb>`.
  const instance = event.resource.type.startsWith('custom_object.');
  const type = instance ? 'custom_object' : event.resource.type;
  if (!isSyncType(type)) return undefined;
  const verb = event.type.split('.').at(-1) as string;
  if (type === 'custom_object' && event.type.split('.').length !== 3) return undefined;
  // Internal companions (case.external_id_updated, area.waiting_time_updated) repeat an event beside
  // them; reactions change a comment's counts (comment.reaction).
  if (!['created', 'updated', 'deleted', 'reaction'].includes(verb)) return undefined;
  const object = (event.data.object ?? {}) as Fields;
  const id = type === 'comment' && verb === 'reaction' ? text(object.comment_id) : event.resource.id;
  if (!id) return undefined;
  const previous = event.data.previous_attributes as Fields | undefined;
  const created = verb === 'created';
  const deleted = verb === 'deleted';
  const version = typeof object.lock_version === 'number' ? object.lock_version : -1;
  const subject: SyncSubject = {
    type,
    id,
    version: verb === 'reaction' ? -1 : version,
    created,
    deleted,
    changed: created || deleted || verb === 'reaction' ? [] : Object.keys(previous ?? {}),
    occurredAt: Date.parse(event.occurred_at),
  };
  if (type === 'comment' && text(object.target_type) === 'core:case') subject.caseId = text(object.target_id);
  if (type === 'custom_object') {
    const parent = text(object.definition_id);
    if (!parent) return undefined;
    subject.parent = parent;
  }
  const before = created ? undefined : holdingOf(type, beforeOf(object, previous));
  const after = deleted ? undefined : holdingOf(type, object);
  if (before) subject.before = before;
  if (after) subject.after = after;
  return subject;
}
