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
 */
import type { Area } from '../domain/areas/area.schema.ts';
import type { Skill } from '../domain/skills/skill.schema.ts';
import type { StoredTag } from '../domain/tags/tag.schema.ts';
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
