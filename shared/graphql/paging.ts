/**
 * Connection arguments as a window of rows (API-DECISIONS.md: Relay cursors; SPEC.md: offset):
 *
 * - a cursor is opaque: the base64 of the row's position in the ordered, filtered result
 *   (`offset:<n>`); `after: c` starts after that row, `before: c` ends before it;
 * - `offset: n` then skips n more rows;
 * - `first: n` keeps the first n rows of what remains, `last: n` the last n (both given: first,
 *   then last, as Relay orders them); `last` without `before` counts the result to find its end;
 * - neither given: the first 20 rows at the root, 10 in a nested connection; at most 1,000;
 * - pageInfo: hasPreviousPage when rows come before the page, hasNextPage when rows come after it
 *   (the page is read with one row more to know); startCursor / endCursor those of its first and
 *   last edge, null when it is empty.
 *
 * Positions move when rows are added or removed before them: a cursor is a position, not a key.
 */
import { GraphQLError } from 'graphql';

export const maxPageSize = 1000;
export const rootPageSize = 20;
export const nestedPageSize = 10;

export interface ConnectionArgs {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
  offset?: number | null;
}

const prefix = 'offset:';

export function cursorOf(position: number): string {
  return Buffer.from(`${prefix}${position}`).toString('base64');
}

export function badInput(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT' } });
}

function positionOf(cursor: string, argument: string): number {
  const decoded = Buffer.from(cursor, 'base64').toString('utf8');
  const position = decoded.startsWith(prefix) ? Number(decoded.slice(prefix.length)) : Number.NaN;
  if (!Number.isSafeInteger(position) || position < 0 || cursorOf(position) !== cursor) {
    throw badInput(`${argument} is not a cursor of this API: pass a cursor an edge returned.`);
  }
  return position;
}

function sizeOf(value: number | null | undefined, argument: string): number | undefined {
  if (value === null || value === undefined) return undefined;
  if (value < 0 || value > maxPageSize) {
    throw badInput(`${argument} must be between 0 and ${maxPageSize}; ${value} was given.`);
  }
  return value;
}

/** The rows a connection asks for: [start, end) once the end is known. */
export interface Window {
  start: number;
  /** Exclusive; undefined: `count` rows from start (the end of the result bounds it anyway). */
  end?: number;
  /** Rows wanted from start when `end` is not yet known. */
  count: number;
  /** `last` without `before`: the end is the total, which must be counted first. */
  needsTotal: boolean;
  last?: number;
}

export function windowOf(args: ConnectionArgs, defaultSize: number): Window {
  const first = sizeOf(args.first, 'first');
  const last = sizeOf(args.last, 'last');
  if (args.offset !== null && args.offset !== undefined && args.offset < 0) {
    throw badInput(`offset must be 0 or more; ${args.offset} was given.`);
  }
  const after = args.after ? positionOf(args.after, 'after') : -1;
  const before = args.before ? positionOf(args.before, 'before') : undefined;
  const start = after + 1 + (args.offset ?? 0);
  let end = before;
  if (end !== undefined && end < start) end = start;
  const firstCount = first ?? (last === undefined ? defaultSize : undefined);
  if (firstCount !== undefined)
    end = end === undefined ? start + firstCount : Math.min(end, start + firstCount);
  return {
    start,
    ...(end !== undefined ? { end } : {}),
    count: end === undefined ? 0 : end - start,
    needsTotal: end === undefined,
    ...(last !== undefined ? { last } : {}),
  };
}

/** The window made concrete: with the total known when `needsTotal`, `last` applied. */
export function resolveWindow(window: Window, total?: number): { start: number; end: number } {
  let end = window.end ?? total ?? window.start;
  let start = window.start;
  if (total !== undefined) end = Math.min(end, Math.max(total, start));
  if (window.last !== undefined) start = Math.max(start, end - window.last);
  if (end < start) end = start;
  return { start, end };
}

export interface PageInfo {
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor: string | null;
  endCursor: string | null;
}

export interface Connection<T> {
  edges: Array<{ cursor: string; node: T }>;
  pageInfo: PageInfo;
  totalCount: number;
}

/**
 * A connection from the rows [start, start + rows.length) and whether more follow. `totalCount`
 * is resolved lazily by its own resolver when asked (`total`).
 */
export function connectionOf<T>(
  rows: readonly T[],
  start: number,
  hasNextPage: boolean,
  total: () => number | Promise<number>,
): Omit<Connection<T>, 'totalCount'> & { totalCount: () => number | Promise<number> } {
  const edges = rows.map((node, index) => ({ cursor: cursorOf(start + index), node }));
  return {
    edges,
    pageInfo: {
      hasNextPage,
      hasPreviousPage: start > 0,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
    totalCount: total,
  };
}

export function emptyConnection() {
  return connectionOf([], 0, false, () => 0);
}
