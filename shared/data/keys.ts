/**
 * The table's key design, in one place (see README.md beside this file). The workspace
 * (tenant) id leads every partition key of workspace data, so a key built from another
 * workspace's id can never address this workspace's items: isolation by construction.
 * Global lookup items (realms, OIDC clients) are keyed by the name that is looked up.
 */
export type WorkspaceId = string;

const tenant = (workspaceId: WorkspaceId) => `T#${workspaceId}`;

/** Partition of one collection of a workspace: all its items of one entity type. */
export function collectionPk(workspaceId: WorkspaceId, entity: CollectionName): string {
  return `${tenant(workspaceId)}#${entity}`;
}

export type CollectionName =
  | 'AREA'
  | 'TAG'
  | 'TAG_USAGE'
  | 'SKILL'
  | 'SKILL_KEY'
  | 'PRINCIPAL'
  | 'CREDENTIAL'
  | 'EVENT'
  | 'AUDIT'
  | 'WEBHOOK'
  | 'WEBHOOK_FAILURE'
  | 'TOUR'
  | 'OPT_RUN'
  | 'OPT_PLAN'
  | 'SHIFT'
  | 'VEHICLE'
  | 'VEHICLE_LOCATION'
  | 'VEHICLE_PLATE'
  | 'CASE'
  /** The open tour a case is a stop of (one at most): tours/tour-claims.ts. */
  | 'CASE_TOUR'
  /** The PLANNED tour of a shift (one at most): tours/tour-claims.ts. */
  | 'SHIFT_TOUR'
  | 'DEVICE'
  | 'DEVICE_STATE'
  | 'CO_DEF'
  | 'CO_SLUG'
  | 'CO_REL'
  | 'CO_PERM'
  | 'UPLOAD'
  | 'COMMENT'
  | 'COMMENT_READ'
  | 'COMMENT_DEDUP'
  | 'COMMENT_FILE'
  /** Maintenance plans (domain/maintenance-plans). */
  | 'MAINTENANCE_PLAN'
  /** How far each maintenance plan's cases are generated, and for which revision of the plan. */
  | 'MPLAN_CURSOR';

/**
 * The instances of one custom-object definition: a partition per definition (keyed by its id, so
 * a rename moves nothing), whose sort key is the instance id (UUIDv7: creation order).
 */
export function instancePartition(workspaceId: WorkspaceId, definitionId: string): string {
  return `${tenant(workspaceId)}#CO_INST#${definitionId}`;
}

/** The associations of one custom-object relation: sort key `<side a id>#<side b id>`. */
export function associationPartition(workspaceId: WorkspaceId, relationId: string): string {
  return `${tenant(workspaceId)}#CO_ASSOC#${relationId}`;
}

/**
 * One person's reactions on the comments of one target (`<target_type>#<target_id>`): sort key
 * `<comment_id>#<emoji name>`, so "which reactions are mine" on a page of a thread is one Query.
 */
export function commentReactionPartition(workspaceId: WorkspaceId, target: string, userId: string): string {
  return `${tenant(workspaceId)}#COMMENT_REACTION#${target}#${userId}`;
}

/**
 * What one apply of an optimization run wrote (optimization-runs/apply-journal.ts): an item per
 * record written, in the transaction that wrote it, so a crashed apply knows its own writes.
 */
export function applyJournalPartition(workspaceId: WorkspaceId, runId: string): string {
  return `${tenant(workspaceId)}#APPLY#${runId}`;
}

/** The partition of one device's telemetry points. */
export function devicePointPartition(workspaceId: WorkspaceId, deviceId: string): string {
  return `${tenant(workspaceId)}#DEVICE_POINT#${deviceId}`;
}

/**
 * The parts of one optimization run's plan (optimization-runs/run-plan.store.ts): a partition per
 * run, so a plan's parts are one key range and never meet another run's.
 */
export function planPartPartition(workspaceId: WorkspaceId, runId: string): string {
  return `${tenant(workspaceId)}#OPT_PLAN_PART#${runId}`;
}

/**
 * Offline sync (domain/sync, docs/offline-sync.md): a feed per user (`owner` = user id) and one
 * shared by the workspace's users (`*`: areas, tags, skills), sort key the feed position.
 */
export function syncFeedPartition(workspaceId: WorkspaceId, owner: string): string {
  return `${tenant(workspaceId)}#SYNC_FEED#${owner}`;
}

/** A user's sync scope index: sort key `<day>#<type>#<id>` of the cases, tours and shifts they hold. */
export function syncScopePartition(workspaceId: WorkspaceId, userId: string): string {
  return `${tenant(workspaceId)}#SYNC_SCOPE#${userId}`;
}

/** The results of one installation's pushed mutations, sort key the mutation id (zero-padded). */
export function syncResultPartition(
  workspaceId: WorkspaceId,
  userId: string,
  installationId: string,
): string {
  return `${tenant(workspaceId)}#SYNC_RESULT#${userId}#${installationId}`;
}

/** The due-time index's partition of one UTC minute (`YYYY-MM-DDTHH:MM`). */
export const slaDueMinute = (minute: string) => `SLA_DUE#${minute}`;
/**
 * The occurrence claims of one maintenance plan, sort key the occurrence (UTC, `…Z`): one item per
 * occurrence a case was generated for, created in the case's own transaction on the condition that
 * it is absent, so no retry, crash or second generator ever makes two cases for one occurrence.
 */
export function occurrenceClaimPartition(workspaceId: WorkspaceId, planId: string): string {
  return `${tenant(workspaceId)}#MPLAN_OCC#${planId}`;
}

export const keys = {
  workspace: (workspaceId: WorkspaceId) => ({ pk: tenant(workspaceId), sk: 'WORKSPACE' }),
  principal: (workspaceId: WorkspaceId, principalId: string) => ({
    pk: collectionPk(workspaceId, 'PRINCIPAL'),
    sk: principalId,
  }),
  area: (workspaceId: WorkspaceId, areaId: string) => ({ pk: collectionPk(workspaceId, 'AREA'), sk: areaId }),
  tag: (workspaceId: WorkspaceId, tagId: string) => ({ pk: collectionPk(workspaceId, 'TAG'), sk: tagId }),
  /**
   * How many principals carry a tag: a counter apart from the tag item, so attaching a tag
   * (an atomic ADD) never races with a merge-patch of the tag itself.
   */
  tagUsage: (workspaceId: WorkspaceId, tagId: string) => ({
    pk: collectionPk(workspaceId, 'TAG_USAGE'),
    sk: tagId,
  }),
  skill: (workspaceId: WorkspaceId, skillId: string) => ({
    pk: collectionPk(workspaceId, 'SKILL'),
    sk: skillId,
  }),
  /** Guard item of a skill short key (unique per workspace, compared case-insensitively). */
  skillShortKey: (workspaceId: WorkspaceId, shortKeyIdentity: string) => ({
    pk: collectionPk(workspaceId, 'SKILL_KEY'),
    sk: shortKeyIdentity,
  }),
  /**
   * A user's password hash, set-password token and failed-login count: apart from the user
   * item, so a failed login or a password change never bumps the user's lock_version.
   */
  credential: (workspaceId: WorkspaceId, userId: string) => ({
    pk: collectionPk(workspaceId, 'CREDENTIAL'),
    sk: userId,
  }),
  /** Outbox: one item per domain event, sort key = the UUIDv7 event id, so time-ordered. */
  event: (workspaceId: WorkspaceId, eventId: string) => ({
    pk: collectionPk(workspaceId, 'EVENT'),
    sk: eventId,
  }),
  /** Audit entries ordered by occurrence; the event id makes equal timestamps unique. */
  auditEntry: (workspaceId: WorkspaceId, occurredAt: string, eventId: string) => ({
    pk: collectionPk(workspaceId, 'AUDIT'),
    sk: `${occurredAt}#${eventId}`,
  }),
  /**
   * One small item per workspace under a global partition, so the admin control plane can
   * page through workspaces with one Query (ids and creation times only; the workspace item
   * itself stays the one source of its state).
   */
  workspaceIndex: (workspaceId: WorkspaceId) => ({ pk: 'WORKSPACES', sk: workspaceId }),
  /** One row per webhook message that failed at least once; sort key = the delivery id. */
  webhookFailure: (workspaceId: WorkspaceId, deliveryId: string) => ({
    pk: collectionPk(workspaceId, 'WEBHOOK_FAILURE'),
    sk: deliveryId,
  }),
  /**
   * A vehicle's latest reported location: apart from the vehicle item, so a report (every few
   * seconds) never bumps the vehicle's lock_version nor races a PATCH of the vehicle.
   */
  vehicleLocation: (workspaceId: WorkspaceId, vehicleId: string) => ({
    pk: collectionPk(workspaceId, 'VEHICLE_LOCATION'),
    sk: vehicleId,
  }),
  /** Guard item of a license plate (unique per workspace, compared without case, blanks, hyphens). */
  vehiclePlate: (workspaceId: WorkspaceId, plateIdentity: string) => ({
    pk: collectionPk(workspaceId, 'VEHICLE_PLATE'),
    sk: plateIdentity,
  }),
  /** The claim of one occurrence of a maintenance plan: holds the id of the case generated for it. */
  occurrenceClaim: (workspaceId: WorkspaceId, planId: string, occurrence: string) => ({
    pk: occurrenceClaimPartition(workspaceId, planId),
    sk: occurrence,
  }),
  /**
   * A workspace that has (or had) maintenance plans: the scheduled generation's one Query to find
   * the workspaces to look at, instead of every workspace. Put before every plan's create; never removed
   * (a workspace whose plans are gone costs one empty Query per run).
   */
  maintenanceWorkspace: (workspaceId: WorkspaceId) => ({ pk: 'MAINTENANCE_WORKSPACES', sk: workspaceId }),
  /** A maintenance plan's generation cursor: the plan revision generated and the instant reached. */
  maintenancePlanCursor: (workspaceId: WorkspaceId, planId: string) => ({
    pk: collectionPk(workspaceId, 'MPLAN_CURSOR'),
    sk: planId,
  }),
  /** Guard item of a custom-object definition's slug (unique per workspace); holds the definition id. */
  definitionSlug: (workspaceId: WorkspaceId, slug: string) => ({
    pk: collectionPk(workspaceId, 'CO_SLUG'),
    sk: slug,
  }),
  instance: (workspaceId: WorkspaceId, definitionId: string, instanceId: string) => ({
    pk: instancePartition(workspaceId, definitionId),
    sk: instanceId,
  }),
  relation: (workspaceId: WorkspaceId, relationId: string) => ({
    pk: collectionPk(workspaceId, 'CO_REL'),
    sk: relationId,
  }),
  association: (workspaceId: WorkspaceId, relationId: string, sideA: string, sideB: string) => ({
    pk: associationPartition(workspaceId, relationId),
    sk: `${sideA}#${sideB}`,
  }),
  /** The permission matrix of a PROTECTED definition (apart from it: a PUT never bumps its lock_version). */
  definitionPermissions: (workspaceId: WorkspaceId, definitionId: string) => ({
    pk: collectionPk(workspaceId, 'CO_PERM'),
    sk: definitionId,
  }),
  /**
   * The revision of the workspace's custom-object model (definitions and relations): every write
   * of either adds 1 in its transaction, so a GraphQL node knows from one GetItem whether its
   * cached schema is current.
   */
  customObjectRevision: (workspaceId: WorkspaceId) => ({ pk: tenant(workspaceId), sk: 'CO_REVISION' }),
  /** A settings singleton of the workspace (ai_assistant, mcp, geoservices, document_management, live_day). */
  settings: (workspaceId: WorkspaceId, name: string) => ({ pk: tenant(workspaceId), sk: `SETTINGS#${name}` }),
  /** The workspace's billing profile: a singleton, created by its first PATCH. */
  billingProfile: (workspaceId: WorkspaceId) => ({ pk: tenant(workspaceId), sk: 'BILLING_PROFILE' }),
  /**
   * The workspace's link to the payment provider (its customer id, a profile sync still owed):
   * apart from the profile, so provider bookkeeping never bumps the profile's lock_version.
   */
  billingAccount: (workspaceId: WorkspaceId) => ({ pk: tenant(workspaceId), sk: 'BILLING_ACCOUNT' }),
  /**
   * The local payment provider (npm start) keeps its own state as an outside provider would:
   * customers by their id, and portal sessions by the SHA-256 of the token in their URL (TTL).
   */
  localBillingCustomer: (customerId: string) => ({
    pk: `LOCAL_BILLING#CUSTOMER#${customerId}`,
    sk: 'CUSTOMER',
  }),
  localBillingSession: (tokenHash: string) => ({ pk: `LOCAL_BILLING#SESSION#${tokenHash}`, sk: 'SESSION' }),
  /**
   * A logo or favicon upload intent (tenant-uploads): its form's key and expiry, then its check's
   * outcome; with TTL, so status records are readable for a week and then gone.
   */
  uploadIntent: (workspaceId: WorkspaceId, fileId: string) => ({
    pk: collectionPk(workspaceId, 'UPLOAD'),
    sk: fileId,
  }),
  /** The workspace's device number sequence: an atomic counter, so natural_id is never taken twice. */
  deviceSequence: (workspaceId: WorkspaceId) => ({ pk: tenant(workspaceId), sk: 'SEQ#DEVICE' }),
  /**
   * A device's current telemetry state and intake credential (the secret's hash): apart from the
   * device item, so intake (many reports a minute) never bumps the device's lock_version nor races
   * a PATCH. It also carries the device's entry in the geographic index (device-state.store.ts).
   */
  deviceState: (workspaceId: WorkspaceId, deviceId: string) => ({
    pk: collectionPk(workspaceId, 'DEVICE_STATE'),
    sk: deviceId,
  }),
  /**
   * A device's telemetry history: one partition per device, points by recorded time (with TTL),
   * so a device's history is one key range and its deletion never touches another device.
   */
  devicePoint: (workspaceId: WorkspaceId, deviceId: string, recordedAt: string, pointId: string) => ({
    pk: devicePointPartition(workspaceId, deviceId),
    sk: `${recordedAt}#${pointId}`,
  }),
  /**
   * One part of a run's plan (its JSON cut in pieces that each fit an item); sort key = the part
   * number, zero-padded so that key order is part order.
   */
  planPart: (workspaceId: WorkspaceId, runId: string, part: number) => ({
    pk: planPartPartition(workspaceId, runId),
    sk: String(part).padStart(4, '0'),
  }),
  /** A comment (soft-deleted ones stay: tombstones keep their thread); sort key = its UUIDv7 id. */
  comment: (workspaceId: WorkspaceId, commentId: string) => ({
    pk: collectionPk(workspaceId, 'COMMENT'),
    sk: commentId,
  }),
  /** Up to when a person has read the comments of a target (`<target_type>#<target_id>`). */
  commentReadMarker: (workspaceId: WorkspaceId, userId: string, target: string) => ({
    pk: collectionPk(workspaceId, 'COMMENT_READ'),
    sk: `${userId}#${target}`,
  }),
  /**
   * The duplicate-submission guard of a comment: author, target, parent and the SHA-256 of the
   * body; holds the comment id and until when a repeat gets that comment back.
   */
  commentDedup: (workspaceId: WorkspaceId, fingerprint: string) => ({
    pk: collectionPk(workspaceId, 'COMMENT_DEDUP'),
    sk: fingerprint,
  }),
  /** A comment attachment: its upload form, then the comment it was attached to. */
  commentAttachment: (workspaceId: WorkspaceId, fileId: string) => ({
    pk: collectionPk(workspaceId, 'COMMENT_FILE'),
    sk: fileId,
  }),
  /** One reaction (an emoji of one person on one comment). */
  commentReaction: (
    workspaceId: WorkspaceId,
    target: string,
    userId: string,
    commentId: string,
    emoji: string,
  ) => ({
    pk: commentReactionPartition(workspaceId, target, userId),
    sk: `${commentId}#${emoji}`,
  }),
  realm: (realm: string) => ({ pk: `REALM#${realm}`, sk: 'REALM' }),
  /** OIDC clients are unique per realm, as in Keycloak. */
  client: (realm: string, clientId: string) => ({ pk: `REALM#${realm}#CLIENT`, sk: clientId }),
  /**
   * Login names are unique per realm (as in Keycloak): the guard item of a user's e-mail, which
   * also tells the login form which workspace and user an e-mail belongs to.
   */
  realmEmail: (realm: string, email: string) => ({ pk: `REALM#${realm}#EMAIL`, sk: email.toLowerCase() }),
  /** Failed sign-ins from one client address in a realm (brute-force throttling), with TTL. */
  loginAddress: (realm: string, address: string) => ({ pk: `REALM#${realm}#LOGIN_ADDRESS`, sk: address }),
  /** The workspace's key that signs sync cursors (random, made on the first pull, never returned). */
  syncCursorKey: (workspaceId: WorkspaceId) => ({ pk: tenant(workspaceId), sk: 'SYNC_CURSOR_KEY' }),
  /** The device whose positions last moved a tour on the road (live-day: a case's ETA page reads its age). */
  liveSpeaker: (workspaceId: WorkspaceId, tourId: string) => ({
    pk: `${tenant(workspaceId)}#LIVE_SPEAKER`,
    sk: tourId,
  }),
  /**
   * The due-time index (cases/case-due-index.ts): one item per moment at which time alone moves an
   * unfinished case's sla_status, in the partition of its UTC minute (`YYYY-MM-DDTHH:MM`), so the
   * detector reads a minute with one Query, whatever the number of cases or workspaces.
   */
  slaDue: (minute: string, workspaceId: WorkspaceId, caseId: string, kind: string) => ({
    pk: slaDueMinute(minute),
    sk: `${workspaceId}#${caseId}#${kind}`,
  }),
  /** The last minute of the due-time index the detector has settled (cases/sla-detector.ts). */
  slaDetectorCursor: () => ({ pk: 'SLA_DETECTOR', sk: 'CURSOR' }),
  /** The version of offline sync's backfill done in the workspace (maintenance/sync-backfill.ts). */
  syncBackfill: (workspaceId: WorkspaceId) => ({ pk: tenant(workspaceId), sk: 'SYNC_BACKFILL' }),
  /** The sync feeds' head: the last position given out (only the sync indexer moves it). */
  syncHead: (workspaceId: WorkspaceId) => ({ pk: tenant(workspaceId), sk: 'SYNC_HEAD' }),
  /** What the sync indexer knows of a record: its last version seen and when each field last changed. */
  syncRecord: (workspaceId: WorkspaceId, type: string, id: string) => ({
    pk: `${tenant(workspaceId)}#SYNC_REC`,
    sk: `${type}#${id}`,
  }),
  /** One app installation of a user: the last mutation it applied. */
  syncInstallation: (workspaceId: WorkspaceId, userId: string, installationId: string) => ({
    pk: `${tenant(workspaceId)}#SYNC_INSTALL`,
    sk: `${userId}#${installationId}`,
  }),
} as const;

/**
 * What a list's index partitions and counters belong to: one workspace, or the platform (the
 * admin plane's workspace list).
 */
export type ListScope = { kind: 'workspace'; workspaceId: WorkspaceId } | { kind: 'platform' };

const scopePrefix = (scope: ListScope) =>
  scope.kind === 'workspace' ? tenant(scope.workspaceId) : 'PLATFORM';

/** Keys of the list indexes (see lists.ts and README.md, "Lists"). */
export const listKeys = {
  /** Partition of a list's index entries, per segment value when the list has segments. */
  indexPartition: (scope: ListScope, list: string, segment?: string) =>
    `${scopePrefix(scope)}#L#${list}${segment === undefined ? '' : `#${segment}`}`,
  /** A counter of a list: `<list>#all`, `<list>#<segment>`, `<list>#<segment>#role=admin`. */
  counter: (scope: ListScope, list: string, name: string) => ({
    pk: `${scopePrefix(scope)}#COUNT`,
    sk: `${list}#${name}`,
  }),
  /** A search token of a record: every token prefix is a key range of one partition. */
  searchToken: (scope: ListScope, list: string, token: string, id: string) => ({
    pk: `${scopePrefix(scope)}#L#${list}#SEARCH`,
    sk: `${token}\u0001${id}`,
  }),
  searchPartition: (scope: ListScope, list: string) => `${scopePrefix(scope)}#L#${list}#SEARCH`,
  /**
   * What a list keeps between requests of one query (list-cache.ts): its total and the keys
   * where its pages start, per list revision; short-lived (TTL).
   */
  cachePartition: (scope: ListScope) => `${scopePrefix(scope)}#LIST_CACHE`,
  /**
   * A transaction's tally (tally.ts): the shared counter changes of one write, kept until they
   * are applied. Beside the partition of its first counter (so the workspace leads its key), a
   * random id apart: no two transactions ever write one tally item, and the partition spreads.
   */
  tally: (counterPk: string, id: string) => ({ pk: `${counterPk}#TALLY`, sk: id }),
  /** Who owns a workspace (its owner user's id): the admin plane shows it with every workspace. */
  owner: (workspaceId: WorkspaceId) => ({ pk: tenant(workspaceId), sk: 'OWNER' }),
};

/** Version of the list index attributes an item carries; items without it are backfilled. */
export const listVersion = 1;

/** Attributes every stored item carries besides its own fields: never part of a record. */
export const itemMeta = [
  'pk',
  'sk',
  'entity',
  'expires_at',
  'list_v',
  'list_values',
  'gsi1pk',
  'gsi1sk',
  'gsi2pk',
  'gsi2sk',
  'gsi3pk',
  'gsi3sk',
  'gsi4pk',
  'gsi4sk',
  'gsi5pk',
  'gsi5sk',
  'gsi6pk',
  'gsi6sk',
] as const;
