/**
 * The five routes of a plain workspace resource (list, create, get, merge-patch update,
 * delete), built from one description, so every resource gets the same paths, statuses,
 * grants and documentation. Operation ids are literal types (`areas.list` …), so the group's
 * implementation is still checked operation by operation. Resources with more than CRUD add
 * their extra routes beside these.
 */
import type * as z from 'zod';
import type { Grant } from '../auth/grants.ts';
import type { ApiTag } from './api-tags.ts';

/** What the operations of a resource do beyond what the route table states itself. */
export interface CrudDocs {
  /** What the resource is; opens the description of each operation. */
  about: string;
  /** Default order, how filters combine, what the list leaves out. */
  list: string;
  /** Required fields, defaults, uniqueness. */
  create: string;
  /** Clearable fields, null and blank rules, uniqueness of what is sent. */
  update: string;
  /** What becomes of records that refer to it. */
  delete: string;
}

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
  Created extends z.ZodType = Item,
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
  tag: ApiTag;
  readGrants: readonly Grant[];
  writeGrants: readonly Grant[];
  /** Grants of create when they differ from writeGrants (`webhooks:create`). */
  createGrants?: readonly Grant[];
  /**
   * Grants of update when they differ from writeGrants: the narrow `:own` grant of a resource
   * field workers update within limits the service checks (`cases:update:own`, own-work.ts).
   */
  updateGrants?: readonly Grant[];
  /**
   * Error statuses of create besides the common ones: 409 where a value must be free in the
   * workspace (a skill's short_key, a vehicle's plate).
   */
  createErrors?: readonly number[];
  schemas: {
    listQuery: Q;
    idParams: P;
    item: Item;
    list: List;
    create: Create;
    update: Update;
    /** Query parameters of a single read (`include=current_state`). */
    getQuery?: z.ZodObject;
    /** The create answer, when it differs from a read (a secret shown only once). */
    created?: Created;
  };
  docs: CrudDocs;
  /**
   * One record as read, and bodies that create and update it (checked against the schemas);
   * `created` is the create answer when it differs from `item` (a fresh record, lock_version 0).
   */
  examples: {
    item: z.input<Item>;
    create: z.input<Create>;
    update: z.input<Update>;
    created?: z.input<Created>;
  };
}

/** A one-item page: the list example of every resource. */
export function onePage(item: unknown, size = 20) {
  return { items: [item], page: { size, total_elements: 1, total_pages: 1, number: 0 } };
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
  Created extends z.ZodType = Item,
>(resource: CrudResource<G, C, I, Q, P, Item, List, Create, Update, Created>) {
  const {
    group,
    collection,
    idParam,
    singular,
    plural,
    tag,
    readGrants,
    writeGrants,
    createGrants,
    updateGrants,
    createErrors,
    schemas,
    docs,
    examples,
  } = resource;
  const describe = (what: string) => `${docs.about}\n\n${what}`;
  const item = `${collection}/{${idParam}}` as `${C}/{${I}}`;
  const common = { group, tags: [tag], auth: 'bearer' } as const;
  return [
    {
      ...common,
      operationId: `${group}.list` as `${G}.list`,
      method: 'GET',
      path: collection,
      summary: `List ${plural}`,
      description: describe(docs.list),
      examples: { response: onePage(examples.item) },
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
      description: describe(docs.create),
      examples: { request: examples.create, response: examples.created ?? examples.item },
      grants: createGrants ?? writeGrants,
      body: schemas.create,
      ...(createErrors ? { errors: createErrors } : {}),
      success: {
        status: 201,
        description: `The created ${singular}; Location names it.`,
        schema: schemas.created ?? schemas.item,
      },
    },
    {
      ...common,
      operationId: `${group}.get` as `${G}.get`,
      method: 'GET',
      path: item,
      summary: `Get ${article(singular)} ${singular}`,
      description: describe(
        `The ${singular} with this id. An id of another workspace, or a malformed one, is 404 not-found like an unknown one.`,
      ),
      examples: { response: examples.item },
      grants: readGrants,
      params: schemas.idParams,
      ...(schemas.getQuery ? { query: schemas.getQuery } : {}),
      success: { status: 200, description: `The ${singular}.`, schema: schemas.item },
    },
    {
      ...common,
      operationId: `${group}.update` as `${G}.update`,
      method: 'PATCH',
      path: item,
      summary: `Update ${article(singular)} ${singular} (JSON Merge Patch)`,
      description: describe(
        `${docs.update} Only the fields sent are validated and changed; send application/merge-patch+json (application/json is accepted as an alias).`,
      ),
      examples: { request: examples.update, response: examples.item },
      grants: updateGrants ?? writeGrants,
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
      description: describe(`${docs.delete} No body and no lock_version: the delete is unconditional.`),
      examples: {},
      grants: writeGrants,
      params: schemas.idParams,
      success: { status: 204, description: 'Deleted.' },
    },
  ] as const;
}

function article(noun: string): string {
  return /^[aeiou]/i.test(noun) ? 'an' : 'a';
}
