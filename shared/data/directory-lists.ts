/**
 * How the directory's records are listed: users (by names, e-mail, creation and change, in status
 * segments, with role counters and search tokens; service accounts never) and, on the platform,
 * workspaces (README.md, "Lists", USER and WORKSPACE).
 */
import type { PrincipalRecord, WorkspaceRecord } from './directory.store.ts';
import type { ListSpec } from './list-index.ts';
import { byChange, byCreation, collectionOf, maxTokenChars, text } from './list-patterns.ts';
import { foldedWord } from './sort-key.ts';

export const userStatuses = ['ACTIVE', 'BLOCKED', 'INACTIVE'] as const;

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
  // Names and e-mail are projected into every index entry: a search can walk an order.
  tokensOnEntries: true,
  basePartition: collectionOf('PRINCIPAL'),
};

export const workspaceList: ListSpec<WorkspaceRecord> = {
  name: 'WORKSPACE',
  listed: () => true,
  orders: {
    id: { pattern: 'byId', index: 'gsi1', key: (record) => [record.id] },
    created_at: byCreation(),
  },
};
