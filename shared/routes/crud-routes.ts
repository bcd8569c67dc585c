/**
 * The five routes of a plain workspace resource (list, create, get, merge-patch update,
 * delete), built from one description, so every resource gets the same paths, statuses,
 * grants and documentation. Operation ids are literal types (`areas.list` …), so the group's
 * implementation is still checked operation by operation. Resources with more than CRUD add
 * their extra routes beside these.
 */
import type * as z from 'zod';
import type { Grant } from '../auth/grants.ts';

export interface CrudResource<
  G extends string,
  C extends string,
  I extends string,
  Q extends z.ZodObject,
  P extends z.ZodObject,
  Item extends z.ZodType,
  List extends z.ZodType,
  Create extends z.ZodType,
  Update extends z.ZodType,
> {
  group: G;
  /** Collection path, e.g. `/api/v2/areas`. */
  collection: C;
  /** Name of the id placeholder, e.g. `area_id`. */
  idParam: I;
  /** Human names for summaries: `area`, `areas`. */
  singular: string;
  plural: string;
  /** OpenAPI tag, e.g. `Areas`. */
  tag: string;
  readGrants: readonly Grant[];
  writeGrants: readonly Grant[];
  schemas: { listQuery: Q; idParams: P; item: Item; list: List; create: Create; update: Update };
}

export function crudRoutes<
  const G extends string,
  const C extends string,
  const I extends string,
  Q extends z.ZodObject,
  P extends z.ZodObject,
  Item extends z.ZodType,
  List extends z.ZodType,
  Create extends z.ZodType,
  Update extends z.ZodType,
>(resource: CrudResource<G, C, I, Q, P, Item, List, Create, Update>) {
  const { group, collection, idParam, singular, plural, tag, readGrants, writeGrants, schemas } = resource;
  const item = `${collection}/{${idParam}}` as `${C}/{${I}}`;
  const common = { group, tags: [tag], auth: 'bearer' } as const;
  return [
    {
      ...common,
      operationId: `${group}.list` as `${G}.list`,
      method: 'GET',
      path: collection,
      summary: `List ${plural}`,
      grants: readGrants,
      query: schemas.listQuery,
      success: { status: 200, description: `A page of ${plural}.`, schema: schemas.list },
    },
    {
      ...common,
      operationId: `${group}.create` as `${G}.create`,
      method: 'POST',
      path: collection,
      summary: `Create ${article(singular)} ${singular}`,
      grants: writeGrants,
      body: schemas.create,
      success: {
        status: 201,
        description: `The created ${singular}; Location names it.`,
        schema: schemas.item,
      },
    },
    {
      ...common,
      operationId: `${group}.get` as `${G}.get`,
      method: 'GET',
      path: item,
      summary: `Get ${article(singular)} ${singular}`,
      grants: readGrants,
      params: schemas.idParams,
      success: { status: 200, description: `The ${singular}.`, schema: schemas.item },
    },
    {
      ...common,
      operationId: `${group}.update` as `${G}.update`,
      method: 'PATCH',
      path: item,
      summary: `Update ${article(singular)} ${singular} (JSON Merge Patch)`,
      grants: writeGrants,
      params: schemas.idParams,
      body: schemas.update,
      mergePatch: true,
      success: { status: 200, description: `The updated ${singular}.`, schema: schemas.item },
    },
    {
      ...common,
      operationId: `${group}.delete` as `${G}.delete`,
      method: 'DELETE',
      path: item,
      summary: `Delete ${article(singular)} ${singular}`,
      grants: writeGrants,
      params: schemas.idParams,
      success: { status: 204, description: 'Deleted.' },
    },
  ] as const;
}

function article(noun: string): string {
  return /^[aeiou]/i.test(noun) ? 'an' : 'a';
}
