/**
 * List envelopes, page arithmetic and in-memory ordering. Collections are read whole from
 * their partition (see shared/data/README.md for the cost model) and then sorted and sliced
 * here, so every list sorts and pages the same way.
 */
import * as z from 'zod';
import type { SortOrder } from './query-params.ts';

export const PageSchema = z
  .object({
    size: z.int().min(1).max(1000).meta({ description: 'The page size asked for (default 20).' }),
    total_elements: z.int().min(0).meta({ description: 'How many items the whole result holds.' }),
    total_pages: z.int().min(0),
    number: z
      .int()
      .min(0)
      .max(2 ** 31 - 1)
      .meta({ description: '0-based page number.' }),
  })
  .meta({ id: 'Page' });

export type Page = z.infer<typeof PageSchema>;

export interface PageRequest {
  page?: number | undefined;
  size?: number | undefined;
}

export const defaultPageSize = 20;

export function pageOf(total: number, request: PageRequest): Page {
  const size = request.size ?? defaultPageSize;
  return { size, total_elements: total, total_pages: Math.ceil(total / size), number: request.page ?? 0 };
}

export function paginate<T>(items: readonly T[], request: PageRequest): { items: T[]; page: Page } {
  const page = pageOf(items.length, request);
  const start = page.number * page.size;
  return { items: items.slice(start, start + page.size), page };
}

/** A paginated list envelope schema named `<Resource>List` (SPEC.md, Versioning rule 5). */
export function pagedListSchema<T extends z.ZodType>(item: T, name: string) {
  return z.object({ items: z.array(item), page: PageSchema }).meta({ id: name });
}

// Built on first use: ICU takes about 6 ms to build a collator, which every handler that lists
// would otherwise pay at import, though only lists sorted in memory compare strings.
let collator: Intl.Collator | undefined;

const isMissing = (value: unknown) => value === undefined || value === null;

/** Compares two present values; missing values are placed by the caller, whatever the direction. */
function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  collator ??= new Intl.Collator('en', { sensitivity: 'base', numeric: true });
  return collator.compare(String(a), String(b)) || (String(a) < String(b) ? -1 : 1);
}

/** Stable multi-key sort; `id` breaks ties so pages never overlap. Missing values sort last. */
export function sortItems<T extends Record<string, unknown>>(
  items: T[],
  orders: readonly SortOrder[],
  fallback: readonly SortOrder[],
): T[] {
  const keys = orders.length > 0 ? orders : fallback;
  const withTiebreak = keys.some((k) => k.field === 'id')
    ? keys
    : [...keys, { field: 'id', direction: 'asc' } as const];
  return [...items].sort((x, y) => {
    for (const { field, direction } of withTiebreak) {
      const a = x[field];
      const b = y[field];
      if (isMissing(a) || isMissing(b)) {
        if (isMissing(a) && isMissing(b)) continue;
        return isMissing(a) ? 1 : -1;
      }
      const c = compareValues(a, b);
      if (c !== 0) return direction === 'asc' ? c : -c;
    }
    return 0;
  });
}
