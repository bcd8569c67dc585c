/**
 * Who may do what on the single table, in one place. Every operation group of the route table
 * must declare its access (a group missing here does not compile), and the IAM statements of
 * every function and of the container are built from these action lists, never from `grant*`
 * helpers that hand out more (Scan, BatchWriteItem, DescribeTable...).
 *
 * DynamoDB has no IAM action for transactions: TransactWriteItems is authorised per item as
 * PutItem / DeleteItem / UpdateItem / ConditionCheckItem, TransactGetItems as GetItem.
 */
import type { OperationGroup } from '../shared/routes/route-table.ts';

export type TableAccess = 'none' | 'read' | 'read-write';

/**
 * The data layer (shared/data/table.ts) reads with GetItem and Query and writes through
 * TransactWriteItems made of conditional Put and Delete items and counter Updates.
 */
export const groupTableAccess = {
  platform: 'none',
  areas: 'read-write',
  tags: 'read-write',
  users: 'read-write',
  skills: 'read-write',
  'audit-logs': 'read',
  // The control plane writes workspaces, owners, realms and clients (workspace-admin.store.ts).
  admin: 'read-write',
  webhooks: 'read-write',
  vehicles: 'read-write',
  tours: 'read-write',
  // Shifts, their list counters, and the users and vehicles they name (reads).
  shifts: 'read-write',
  cases: 'read-write',
  // Maintenance plans, and the areas and skills their templates name (reads); cases are generated off the
  // request path (functions/maintenance-generator, the stream processor).
  'maintenance-plans': 'read-write',
  // Optimization runs and their plans; an apply writes tours and cases through their services.
  scheduling: 'read-write',
  // Comments, their counters, read markers, reactions, duplicate guards and attachment uploads.
  comments: 'read-write',
  devices: 'read-write',
  settings: 'read-write',
  'custom-objects': 'read-write',
  // Reads only: the model revision, definitions, relations, instances and matrices.
  graphql: 'read',
  // The tenant record is the workspace item; uploads keep an intent item each (keys.ts uploadIntent).
  tenant: 'read-write',
  // Intake reads the device and its state, writes the state (PutItem) and history points
  // (BatchWriteItem: shared/data/table.ts putRecords), and a first location's device update.
  'device-intake': 'read-write',
  // The profile, the provider link, and (local provider) its customers and portal sessions.
  billing: 'read-write',
  // Offline sync: the feeds, scope index and marks (reads), installations and results (writes),
  // and every pushed mutation through the services of its type (domain/sync/push.service.ts).
  sync: 'read-write',
} as const satisfies Record<OperationGroup, TableAccess>;

export const tableActions = {
  none: [],
  // BatchGetItem: a list page's items, counters and the catalogs of a page (shared/data/list-read.ts).
  read: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'],
  'read-write': [
    'dynamodb:GetItem',
    'dynamodb:BatchGetItem',
    'dynamodb:Query',
    'dynamodb:PutItem',
    'dynamodb:DeleteItem',
    // Atomic counters (tag usage, failed sign-ins) and counter items inside transactions.
    'dynamodb:UpdateItem',
  ],
} as const satisfies Record<TableAccess, readonly string[]>;

/**
 * The `records` stream processor writes the audit entries of a stream batch with BatchWriteItem
 * (its own IAM action, unlike the items of a transaction).
 */
export const streamProcessorTableActions = [
  'dynamodb:BatchWriteItem',
  // The history of a deleted device: its points' keys (Query), deleted with BatchWriteItem, and
  // the next step's event in the outbox (a TransactWriteItems of one Put) (device-history.consumer.ts).
  'dynamodb:Query',
  'dynamodb:PutItem',
  // Tallies the writers left (shared/data/tally.ts): each deleted on its condition, its counter
  // changes ADDed, in one TransactWriteItems; a greatest value raised with UpdateItem.
  'dynamodb:DeleteItem',
  'dynamodb:UpdateItem',
  // The sync indexer (domain/sync/sync-indexer.consumer.ts): the feeds' head (GetItem), the marks
  // of a batch's records and the cases of its comments (BatchGetItem); its writes are the
  // BatchWriteItem and transaction Puts above.
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
] as const;

/**
 * The `live` stream processor's webhook dispatcher reads a workspace's endpoints with a Query of
 * their base partition (webhookEndpointStore.list), so it is granted on the table alone, no index.
 */
export const liveStreamProcessorTableActions = ['dynamodb:Query'] as const;

/**
 * The webhook delivery worker (shared/webhooks/delivery-worker.ts): GetItem for the endpoint
 * and the failure row (strongly consistent), and the row's writes: its first failure is a
 * TransactWriteItems of a conditional Put (the row) and its tally (a Put), later ones a PutItem;
 * the tally is then applied (shared/data/tally.ts: a Delete and counter Updates). No Query,
 * BatchGetItem or ConditionCheckItem: no path of the worker uses them.
 */
export const webhookDeliveryTableActions = [
  'dynamodb:GetItem',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
] as const;

/**
 * The container's identity provider keeps its sessions, grants and codes in the table
 * (shared/identity/oidc-storage.ts): Get/Put/Delete, Update to mark codes consumed, Query for
 * revocation by grant.
 */
export const containerTableActions = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
] as const;

/** The stream permissions Lambda's event source mapping needs (ListStreams has no resource scope). */
export const streamReadActions = [
  'dynamodb:DescribeStream',
  'dynamodb:GetRecords',
  'dynamodb:GetShardIterator',
  'dynamodb:ListStreams',
] as const;

/**
 * Groups that send e-mail (invitations, set-password links) through the mail port's SES
 * adapter (shared/mail/mailer.ts): they get ses:SendEmail and FSM_MAIL_FROM, nobody else.
 */
/** Table actions a group needs beyond its access level. */
export const groupExtraTableActions: Partial<Record<OperationGroup, readonly string[]>> = {
  // History points of concurrent reports share BatchWriteItem calls (device-intake.service.ts).
  'device-intake': ['dynamodb:BatchWriteItem'],
};

/**
 * Groups that send SMS (the setup SMS of app devices) through the SMS port's SNS adapter
 * (shared/sms/sms-sender.ts): sns:Publish to phone numbers, nobody else.
 */
export const smsSendingGroups = ['devices'] as const satisfies readonly OperationGroup[];

/**
 * Groups that sign upload forms for the private upload bucket and read and delete its files
 * (lib/upload-checks.ts `allowUploads`): FSM_UPLOAD_BUCKET and S3 object rights, nobody else.
 */
export const uploadGroups = ['tenant', 'comments', 'sync'] as const satisfies readonly OperationGroup[];

export const mailSendingGroups = ['users', 'admin'] as const satisfies readonly OperationGroup[];

/**
 * Groups that read Amazon Location route matrices (appointment slots and bookings see the day with
 * the workspace's travel, as its runs do): geo-routes:CalculateRouteMatrix and
 * FSM_TRAVEL_PROVIDERS, nobody else.
 */
export const routeMatrixGroups = ['scheduling'] as const satisfies readonly OperationGroup[];

/**
 * The solver function (lib/solver.ts): reads what a run plans (cases, shifts, tours, users,
 * settings: GetItem, BatchGetItem, Query of the list indexes) and moves the run with its plan
 * and events (TransactWriteItems: PutItem, UpdateItem), then applies the write's tally of list
 * counters (shared/data/tally.ts: DeleteItem, UpdateItem); a plan's parts are put, and removed
 * when the success loses, in batches (BatchWriteItem).
 */
export const solverTableActions = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
] as const;

/**
 * The apply worker (lib/apply-worker.ts): reads the run, its plan and journal and the records it
 * writes, and writes tours (created, replaced, deleted when undone), cases, guards, journal
 * entries and events in transactions (PutItem, UpdateItem, DeleteItem).
 */
export const applyTableActions = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
] as const;

/**
 * The service-level detector (lib/sla-detector.ts): reads its cursor, the due-time index's minutes
 * (Query) and the due cases (GetItem), writes the cases with their events and list entries in
 * transactions (PutItem, UpdateItem, DeleteItem), then applies the write's tally; removes settled
 * index items and moves its cursor (DeleteItem, PutItem).
 */
export const slaDetectorTableActions = [
  'dynamodb:GetItem',
  'dynamodb:Query',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
] as const;
