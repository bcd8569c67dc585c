/**
 * How each collection is listed: its orders, each named by the access pattern it serves and
 * mapped to a generic index (table-definition.ts), its segments, counters and search tokens.
 * list-index.ts says what these declarations make every write maintain, list-read.ts how a
 * page is read; README.md ("Lists") has the table of patterns and their costs.
 *
 * | list      | order (pattern → index)                                                                                 | segment | counters       | search |
 * |-----------|---------------------------------------------------------------------------------------------------------|---------|----------------|--------|
 * | USER      | last_name byLastName → gsi1, first_name byFirstName → gsi2, email byEmail → gsi3, created_at → gsi4, updated_at → gsi5 | status  | role=<name>    | tokens |
 * | AREA      | name → gsi1, color → gsi2, created_at → gsi4, updated_at → gsi5, id → base                               |         |                |        |
 * | TAG       | name → gsi1, color → gsi2, created_at → gsi4, updated_at → gsi5, usage_count byUsage → gsi6 (counter items), id → base | |        |        |
 * | SKILL     | name → gsi1, skill_type → gsi2, short_key → gsi3, created_at → gsi4, updated_at → gsi5, id → base        |         |                |        |
 * | WORKSPACE | id → gsi1, created_at → gsi4 (platform scope)                                                           |         |                |        |
 * | WEBHOOK   | created_at → gsi4, updated_at → gsi5, id → base                                                          |         |                |        |
 * | VEHICLE   | name → gsi1, license_plate byPlate → gsi2, created_at → gsi4, updated_at → gsi5                          | active  |                |        |
 * | TOUR      | date byDate → gsi1, created_at → gsi4, updated_at → gsi5; facets driver_id → gsi2, vehicle_id → gsi3 (by date) | status | driver_id=, vehicle_id= |  |
 * | DEVICE    | natural_id → gsi6, device_model byModel → gsi1, device_identity_id byIdentity → gsi3, created_at → gsi4, updated_at → gsi5, kind → the segments (each by natural_id); facet model (folded) → gsi2 (by creation) | kind | located, model= | tokens |
 * | CASE      | title → gsi1, status → the segments (each by gsi4), priority → gsi6 (rank, creation), scheduled_start → gsi3, created_at → gsi4, updated_at → gsi5; facet assignee_id → gsi2 (by creation) | status | assignee_id=, area_id= | |
 * | CO_DEF    | slug bySlug → gsi1, title byTitle → gsi2, created_at → gsi4, updated_at → gsi5                          |         |                |        |
 */
import type { Area } from '../domain/areas/area.schema.ts';
import type { Case } from '../domain/cases/case.schema.ts';
import { casePriorities, caseStatuses } from '../domain/cases/case-enums.ts';
import type { CustomObjectDefinition } from '../domain/custom-objects/definition.schema.ts';
import type { StoredDevice } from '../domain/devices/device.schema.ts';
import { deviceKinds } from '../domain/devices/device-kinds.ts';
import type { Skill } from '../domain/skills/skill.schema.ts';
import type { StoredTag } from '../domain/tags/tag.schema.ts';
import type { Tour } from '../domain/tours/tour.schema.ts';
import { tourStatuses } from '../domain/tours/tour-statuses.ts';
import type { StoredVehicle } from '../domain/vehicles/vehicle.schema.ts';
import type { StoredWebhookEndpoint } from '../domain/webhooks/webhook-endpoint.schema.ts';
import type { PrincipalRecord, WorkspaceRecord } from './directory.store.ts';
import { collectionPk, type ListScope } from './keys.ts';
import type { ListSpec, OrderPattern } from './list-index.ts';
import { foldedText, foldedWord } from './sort-key.ts';

type Fields = Record<string, unknown>;

/** Text fields, folded, in order of significance. */
const text =
  <R>(...fields: string[]) =>
  (record: R): string[] =>
    fields.map((field) => foldedText(String((record as Fields)[field] ?? '')));

/** A timestamp field: ISO strings order by their bytes. */
const time =
  <R>(field: string) =>
  (record: R): string[] => [String((record as Fields)[field] ?? '')];

const byId = <R extends { id: string }>(): OrderPattern<R> => ({
  pattern: 'byId',
  index: 'base',
  key: (r) => [r.id],
});
const byCreation = <R>(): OrderPattern<R> => ({
  pattern: 'byCreation',
  index: 'gsi4',
  key: time<R>('created_at'),
});
const byChange = <R>(): OrderPattern<R> => ({
  pattern: 'byChange',
  index: 'gsi5',
  key: time<R>('updated_at'),
});

const workspaceOf = (scope: ListScope) => {
  if (scope.kind !== 'workspace') throw new Error('a workspace list needs a workspace');
  return scope.workspaceId;
};

export const areaList: ListSpec<Area> = {
  name: 'AREA',
  listed: () => true,
  orders: {
    name: { pattern: 'byName', index: 'gsi1', key: text('name') },
    color: { pattern: 'byColor', index: 'gsi2', key: text('color') },
    created_at: byCreation(),
    updated_at: byChange(),
    id: byId(),
  },
  basePartition: (scope) => collectionPk(workspaceOf(scope), 'AREA'),
};

export const webhookEndpointList: ListSpec<StoredWebhookEndpoint> = {
  name: 'WEBHOOK',
  listed: () => true,
  orders: { created_at: byCreation(), updated_at: byChange(), id: byId() },
  basePartition: (scope) => collectionPk(workspaceOf(scope), 'WEBHOOK'),
};

export const tagList: ListSpec<StoredTag> = {
  name: 'TAG',
  listed: () => true,
  orders: {
    name: { pattern: 'byName', index: 'gsi1', key: text('name') },
    color: { pattern: 'byColor', index: 'gsi2', key: text('color') },
    created_at: byCreation(),
    updated_at: byChange(),
    usage_count: {
      pattern: 'byUsage',
      index: 'gsi6',
      // The entries are the tags' usage counter items (tag-usage.store.ts): their `count`.
      key: (record) => Number((record as Fields).count ?? (record as Fields).usage_count ?? 0),
      maintainedBy: 'counter',
    },
    id: byId(),
  },
  basePartition: (scope) => collectionPk(workspaceOf(scope), 'TAG'),
};

export const skillList: ListSpec<Skill> = {
  name: 'SKILL',
  listed: () => true,
  orders: {
    name: { pattern: 'byName', index: 'gsi1', key: text('name') },
    skill_type: { pattern: 'bySkillType', index: 'gsi2', key: text('skill_type') },
    short_key: { pattern: 'byShortKey', index: 'gsi3', key: text('short_key') },
    created_at: byCreation(),
    updated_at: byChange(),
    id: byId(),
  },
  basePartition: (scope) => collectionPk(workspaceOf(scope), 'SKILL'),
};

/** Vehicles in and out of service are apart, so the `active` filter costs nothing. */
export const vehicleSegments = ['ACTIVE', 'INACTIVE'] as const;

export const vehicleList: ListSpec<StoredVehicle> = {
  name: 'VEHICLE',
  listed: () => true,
  segment: { values: vehicleSegments, of: (record) => (record.active ? 'ACTIVE' : 'INACTIVE') },
  orders: {
    name: { pattern: 'byName', index: 'gsi1', key: text('name') },
    // Vehicles without a plate come last in ascending order.
    license_plate: {
      pattern: 'byPlate',
      index: 'gsi2',
      key: (record) => [record.license_plate ? foldedText(record.license_plate) : '\u{10FFFF}'],
    },
    created_at: byCreation(),
    updated_at: byChange(),
  },
  basePartition: (scope) => collectionPk(workspaceOf(scope), 'VEHICLE'),
};

/**
 * Tours by status (segment), by date, creation and change; a driver's and a vehicle's tours are
 * facets (their own partitions, by date), so "my tours" and "this van's tours" cost their page.
 */
export const tourList: ListSpec<Tour> = {
  name: 'TOUR',
  listed: () => true,
  segment: { values: tourStatuses, of: (record) => record.status },
  orders: {
    date: { pattern: 'byDate', index: 'gsi1', key: time<Tour>('date') },
    created_at: byCreation(),
    updated_at: byChange(),
  },
  facets: {
    driver_id: { index: 'gsi2', order: 'date', of: (record) => record.driver_id },
    vehicle_id: { index: 'gsi3', order: 'date', of: (record) => record.vehicle_id },
  },
  // The date orders in memory; driver_id and vehicle_id are checked when both are asked for.
  listedValues: (record) => ({
    date: record.date,
    driver_id: record.driver_id,
    vehicle_id: record.vehicle_id,
  }),
  basePartition: (scope) => collectionPk(workspaceOf(scope), 'TOUR'),
};

/** A case's priority ranks above its creation time (ms, below 10^13 until the year 2286). */
const priorityPlace = 1e13;

/**
 * Cases (work orders) grow without bound, so every filter and sort key is an index, a segment,
 * a facet or a counter (README.md, "Lists", the CASE rows): status is the segment and its own
 * order (the segments one after another, each by creation); priority a numeric key (rank, then
 * creation time); an assignee's cases a facet (by creation, the default order); an area's a
 * counter. `listedValues` carries what filters and further sort keys read from the entries.
 */
export const caseList: ListSpec<Case> = {
  name: 'CASE',
  listed: () => true,
  segment: { values: caseStatuses, of: (record) => record.status },
  orders: {
    title: { pattern: 'byTitle', index: 'gsi1', key: text('title') },
    status: {
      pattern: 'byStatus',
      index: 'gsi4',
      key: (record) => [String(caseStatuses.indexOf(record.status))],
      segmentOrder: { within: 'created_at' },
    },
    priority: {
      pattern: 'byPriority',
      index: 'gsi6',
      key: (record) =>
        casePriorities.indexOf(record.priority) * priorityPlace + Date.parse(String(record.created_at)),
      leading: (key) => Math.floor(key / priorityPlace),
    },
    // Cases without a window last (ascending).
    scheduled_start: {
      pattern: 'bySchedule',
      index: 'gsi3',
      key: (record) => [record.scheduled_start ?? '\u{10FFFF}'],
    },
    created_at: byCreation(),
    updated_at: byChange(),
  },
  facets: { assignee_id: { index: 'gsi2', order: 'created_at', of: (record) => record.assignee_id } },
  counters: (record) => (record.area_id ? [`area_id=${record.area_id}`] : []),
  listedValues: (record) => ({
    title: record.title,
    priority: record.priority,
    area_id: record.area_id,
    scheduled_start: record.scheduled_start,
    scheduled_end: record.scheduled_end,
  }),
  basePartition: (scope) => collectionPk(workspaceOf(scope), 'CASE'),
};

/** A device's model as its facet value: folded (case and accents ignored), numbers as typed. */
export const deviceModelFacetValue = (model: string | undefined) =>
  model === undefined ? undefined : foldedWord(model.trim()).slice(0, 128);

/** Words of the description that are searchable (its first ones): the tokens join the write's transaction. */
const descriptionWords = 8;

/**
 * Search tokens of a device: model, identity and phone number whole, their words, the phone
 * number's digits without `+`, then the first words of the description; folded, at most 24.
 */
export function deviceTokens(
  record: Pick<StoredDevice, 'device_model' | 'device_identity_id' | 'phone_number' | 'description'>,
): string[] {
  const words = (value: string | undefined) =>
    foldedWord((value ?? '').trim())
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean);
  const whole = [record.device_model, record.device_identity_id].map((value) =>
    foldedWord((value ?? '').trim()),
  );
  const phone = record.phone_number ? [record.phone_number, record.phone_number.replace(/^\+/, '')] : [];
  const tokens = [
    ...whole,
    ...phone,
    ...words(record.device_model),
    ...words(record.device_identity_id),
    ...words(record.description).slice(0, descriptionWords),
  ]
    .filter(Boolean)
    .map((token) => token.slice(0, maxTokenChars));
  return [...new Set(tokens)].slice(0, 24);
}

/** Devices without a model or identity come last in ascending order. */
const lastWhenAbsent = (value: string | undefined) => [value ? foldedText(value) : '\u{10FFFF}'];

/**
 * Devices: a fleet has thousands of trackers. kind is the segment (the kind filter and sort cost
 * nothing); every sort key an index; a model is a facet (its folded value's own partitions and
 * counters), so `model` (a substring) walks the partitions of the models that contain it, found
 * from the model counters; has_location a counter (`located`); search tokens. The bounding box
 * is the geographic index of the devices' states (device-state.store.ts), not a list of this spec.
 */
export const deviceList: ListSpec<StoredDevice> = {
  name: 'DEVICE',
  listed: () => true,
  segment: { values: deviceKinds, of: (record) => record.kind },
  orders: {
    natural_id: { pattern: 'byNumber', index: 'gsi6', key: (record) => record.natural_id },
    device_model: { pattern: 'byModel', index: 'gsi1', key: (record) => lastWhenAbsent(record.device_model) },
    device_identity_id: {
      pattern: 'byIdentity',
      index: 'gsi3',
      key: (record) => lastWhenAbsent(record.device_identity_id),
    },
    kind: {
      pattern: 'byKind',
      index: 'gsi4',
      key: (record) => [String(deviceKinds.indexOf(record.kind))],
      segmentOrder: { within: 'created_at' },
    },
    created_at: byCreation(),
    updated_at: byChange(),
  },
  facets: {
    model: { index: 'gsi2', order: 'created_at', of: (record) => deviceModelFacetValue(record.device_model) },
  },
  counters: (record) => (record.has_location ? ['located'] : []),
  tokens: deviceTokens,
  listedValues: (record) => ({
    natural_id: record.natural_id,
    kind: record.kind,
    device_model: record.device_model,
    device_identity_id: record.device_identity_id,
    has_location: record.has_location ? 1 : 0,
  }),
  basePartition: (scope) => collectionPk(workspaceOf(scope), 'DEVICE'),
};

/** Custom-object definitions: a workspace has tens to hundreds; every sort key an index anyway. */
export const definitionList: ListSpec<CustomObjectDefinition> = {
  name: 'CO_DEF',
  listed: () => true,
  orders: {
    slug: { pattern: 'bySlug', index: 'gsi1', key: (record) => [record.slug] },
    title: { pattern: 'byTitle', index: 'gsi2', key: text('title') },
    created_at: byCreation(),
    updated_at: byChange(),
  },
  basePartition: (scope) => collectionPk(workspaceOf(scope), 'CO_DEF'),
};

export const userStatuses = ['ACTIVE', 'BLOCKED', 'INACTIVE'] as const;

/** Longest token kept (and longest search word compared): a key holds at most 1,024 bytes. */
const maxTokenChars = 64;
/**
 * Tokens per user at most: they join the user's transaction, which holds 100 items (README.md,
 * "Lists": the worst case of a user write).
 */
const maxTokens = 16;

/**
 * Search tokens of a user: each whole name, the whole address, then every word of the first
 * name, last name and e-mail address (split at anything that is not a letter or a digit), in that
 * order, at most 16; folded (case and accents ignored).
 */
export function userTokens(record: Pick<PrincipalRecord, 'firstname' | 'lastname' | 'email'>): string[] {
  const fields = [record.firstname, record.lastname, record.email].map((value) =>
    foldedWord((value ?? '').trim()),
  );
  const words = fields.flatMap((value) => value.split(/[^\p{L}\p{N}]+/u));
  const tokens = [...fields, ...words].filter(Boolean).map((token) => token.slice(0, maxTokenChars));
  return [...new Set(tokens)].slice(0, maxTokens);
}

/** The search words of a query: split at white space, folded, as long as tokens at most. */
export function searchWords(search: string): string[] {
  return foldedWord(search)
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => word.slice(0, maxTokenChars));
}

export const userList: ListSpec<PrincipalRecord> = {
  name: 'USER',
  // Service accounts act for API clients; they are never listed (SPEC.md, User).
  listed: (record) => record.kind === 'user',
  segment: { values: userStatuses, of: (record) => record.status },
  orders: {
    last_name: { pattern: 'byLastName', index: 'gsi1', key: text('lastname', 'firstname') },
    first_name: { pattern: 'byFirstName', index: 'gsi2', key: text('firstname', 'lastname') },
    email: { pattern: 'byEmail', index: 'gsi3', key: text('email') },
    created_at: byCreation(),
    updated_at: byChange(),
  },
  counters: (record) => record.roles.map((role) => `role=${role}`),
  tokens: userTokens,
  basePartition: (scope) => collectionPk(workspaceOf(scope), 'PRINCIPAL'),
};

export const platformScope: ListScope = { kind: 'platform' };

export const workspaceList: ListSpec<WorkspaceRecord> = {
  name: 'WORKSPACE',
  listed: () => true,
  orders: {
    id: { pattern: 'byId', index: 'gsi1', key: (record) => [record.id] },
    created_at: byCreation(),
  },
};

/** The scope of a workspace's lists. */
export const workspaceScope = (workspaceId: string): ListScope => ({ kind: 'workspace', workspaceId });
