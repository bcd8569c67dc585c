/**
 * The building blocks of list declarations (list-index.ts): the orders most collections share
 * (creation, change, id), text and time keys, the list scopes, and search words. Each entity's
 * declaration lives with its entity (shared/domain/<entity>/<entity>.list.ts); README.md
 * ("Lists") has the table of patterns and their costs.
 */
import { type CollectionName, collectionPk, type ListScope } from './keys.ts';
import type { OrderPattern } from './list-index.ts';
import { foldedText, foldedWord } from './sort-key.ts';

type Fields = Record<string, unknown>;

/** Text fields, folded, in order of significance. */
export const text =
  <R>(...fields: string[]) =>
  (record: R): string[] =>
    fields.map((field) => foldedText(String((record as Fields)[field] ?? '')));

/** A timestamp field: ISO strings order by their bytes. */
export const time =
  <R>(field: string) =>
  (record: R): string[] => [String((record as Fields)[field] ?? '')];

export const byId = <R extends { id: string }>(): OrderPattern<R> => ({
  pattern: 'byId',
  index: 'base',
  key: (r) => [r.id],
});
export const byCreation = <R>(): OrderPattern<R> => ({
  pattern: 'byCreation',
  index: 'gsi4',
  key: time<R>('created_at'),
});
export const byChange = <R>(): OrderPattern<R> => ({
  pattern: 'byChange',
  index: 'gsi5',
  key: time<R>('updated_at'),
});

const workspaceOf = (scope: ListScope) => {
  if (scope.kind !== 'workspace') throw new Error('a workspace list needs a workspace');
  return scope.workspaceId;
};

/** The base partition of a workspace collection: where its `id` order reads. */
export const collectionOf = (collection: CollectionName) => (scope: ListScope) =>
  collectionPk(workspaceOf(scope), collection);

/** The scope of a workspace's lists. */
export const workspaceScope = (workspaceId: string): ListScope => ({ kind: 'workspace', workspaceId });

export const platformScope: ListScope = { kind: 'platform' };

/** Longest token kept (and longest search word compared): a key holds at most 1,024 bytes. */
export const maxTokenChars = 64;

/** The search words of a query: split at white space, folded, as long as tokens at most. */
export function searchWords(search: string): string[] {
  return foldedWord(search)
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => word.slice(0, maxTokenChars));
}
