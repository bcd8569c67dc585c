/**
 * The resolvers of a generated schema. They close over the shape only (names, property names,
 * value kinds), never over ids: a schema serves every workspace of its shape, and the workspace's
 * definitions and relation ids come from the request's context (context.ts). Every read goes
 * through the caller's instance reader (the custom-object domain's instance-read.service.ts), which
 * applies REST's read access and page rules.
 *
 * - Root connection: one reader `query` page (one Query of the partition or index, plus the
 *   items when the order walks an index); the total only when `totalCount` is selected (or
 *   `last` runs without `before`).
 * - To-many relation: the linked ids are on the parent item (its link set), so a page in id
 *   order without a filter reads only the page's records; with a filter or another order, all
 *   linked records of every parent are read (one batch per level) and filtered, sorted and paged
 *   in memory.
 * - To-one relation: the first linked id (a ONE side holds at most one), through the same batch.
 * - A type the caller cannot read answers an empty connection and a null to-one, no error.
 */
import { type FieldNode, type GraphQLResolveInfo, Kind, type SelectionSetNode } from 'graphql';
import {
  type InstanceFilter,
  type InstanceItem,
  type InstanceOrder,
  linkedIds,
  matchesFilter,
  sortInstances,
} from '../domain/custom-objects/instance-read.service.ts';
import type { GraphQLContext } from './context.ts';
import { filterOf, orderOf, type RelatedIds } from './filters.ts';
import {
  badInput,
  type ConnectionArgs,
  connectionOf,
  emptyConnection,
  nestedPageSize,
  resolveWindow,
  rootPageSize,
  windowOf,
} from './paging.ts';
import { customScalars } from './scalars.ts';
import type { OutputShape, PropertyFieldShape, RelationFieldShape, SchemaShape } from './schema-model.ts';

/** Records a relation condition of a filter may match at most (it becomes a set of ids). */
export const maxRelatedMatches = 10_000;

interface Args extends ConnectionArgs {
  where?: Record<string, unknown> | null;
  order_by?: Array<Record<string, unknown>> | null;
}

type Resolver = (parent: InstanceItem, args: Args, ctx: GraphQLContext, info: GraphQLResolveInfo) => unknown;

/** Whether a field is selected directly on the field being resolved (through fragments too). */
export function selects(info: GraphQLResolveInfo, name: string): boolean {
  const within = (selectionSet: SelectionSetNode | undefined, seen: Set<string>): boolean =>
    (selectionSet?.selections ?? []).some((selection) => {
      if (selection.kind === Kind.FIELD) return selection.name.value === name;
      if (selection.kind === Kind.INLINE_FRAGMENT) return within(selection.selectionSet, seen);
      const fragmentName = selection.name.value;
      if (seen.has(fragmentName)) return false;
      seen.add(fragmentName);
      return within(info.fragments[fragmentName]?.selectionSet, seen);
    });
  return info.fieldNodes.some((node: FieldNode) => within(node.selectionSet, new Set()));
}

function definitionOrThrow(ctx: GraphQLContext, typeName: string) {
  const definition = ctx.model.definitions.get(typeName);
  if (!definition) throw new Error(`no definition behind ${typeName}`);
  return definition;
}

/** The link condition of a relation filter: the ids of the related records that meet it. */
function relatedIdsOf(ctx: GraphQLContext): RelatedIds {
  const relatedIds: RelatedIds = (relation, where) => {
    const key = `${relation.source}.${relation.field}:${JSON.stringify(where)}`;
    let known = ctx.related.get(key);
    if (!known) {
      known = (async (): Promise<InstanceFilter> => {
        const link = ctx.model.links.get(`${relation.source}.${relation.field}`);
        if (!link) throw new Error(`no relation behind ${relation.source}.${relation.field}`);
        const condition = { link: { relationId: link.relationId, side: link.side } };
        // What the caller cannot read matches nothing, and reveals nothing.
        if (!(await ctx.readable(relation.target))) return { ...condition, ids: new Set<string>() };
        const filter = await filterOf(ctx.compiled.tables, `${relation.target}Filter`, where, relatedIds);
        const { items } = await ctx.reader.query(definitionOrThrow(ctx, relation.target), {
          ...(filter ? { filter } : {}),
          offset: 0,
          limit: maxRelatedMatches + 1,
          withTotal: false,
        });
        if (items.length > maxRelatedMatches) {
          throw badInput(
            `The condition on ${relation.field} matches more than ${maxRelatedMatches} ${relation.target} records; narrow it.`,
          );
        }
        return { ...condition, ids: new Set(items.map((item) => String(item.id))) };
      })();
      ctx.related.set(key, known);
    }
    return known;
  };
  return relatedIds;
}

async function filterFor(ctx: GraphQLContext, typeName: string, where: Args['where']) {
  return filterOf(ctx.compiled.tables, `${typeName}Filter`, where, relatedIdsOf(ctx));
}

async function rootConnection(typeName: string, args: Args, ctx: GraphQLContext, info: GraphQLResolveInfo) {
  const window = windowOf(args, rootPageSize);
  if (!(await ctx.readable(typeName))) return emptyConnection();
  const definition = definitionOrThrow(ctx, typeName);
  const filter = await filterFor(ctx, typeName, args.where);
  const order = orderOf(ctx.compiled.tables, `${typeName}OrderBy`, args.order_by);
  const query = { ...(filter ? { filter } : {}), ...(order.length ? { order } : {}) };
  const wantsTotal = selects(info, 'totalCount');
  let total: number | undefined;
  if (window.needsTotal) {
    ({ total } = await ctx.reader.query(definition, {
      ...query,
      offset: 0,
      limit: 0,
      withTotal: true,
    }));
  }
  const { start, end } = resolveWindow(window, total);
  const count = end - start;
  const page = await ctx.reader.query(definition, {
    ...query,
    offset: start,
    limit: count,
    withTotal: wantsTotal && total === undefined,
  });
  total ??= page.total;
  const rows = page.items;
  ctx.prime(definition.id, rows);
  const counted = total;
  return connectionOf(rows, start, page.hasMore, async () => {
    if (counted !== undefined) return counted;
    return (
      (await ctx.reader.query(definition, { ...query, offset: 0, limit: 0, withTotal: true })).total ?? 0
    );
  });
}

const byId: InstanceOrder[] = [{ field: 'id', direction: 'asc' }];

function nestedConnection(relation: RelationFieldShape): Resolver {
  return async (parent, args, ctx, info) => {
    const window = windowOf(args, nestedPageSize);
    const link = ctx.model.links.get(`${info.parentType.name}.${info.fieldName}`);
    if (!link || !(await ctx.readable(relation.target))) return emptyConnection();
    const definition = definitionOrThrow(ctx, relation.target);
    const ids = linkedIds(parent, link.relationId, link.side).sort();
    const order = orderOf(ctx.compiled.tables, `${relation.target}OrderBy`, args.order_by);
    const filtered = args.where && Object.keys(args.where).length > 0;
    if (!filtered && (order.length === 0 || (order.length === 1 && order[0]?.field === 'id'))) {
      // Ids are UUIDv7, in creation order: the page is known before any record is read.
      if (order[0]?.direction === 'desc') ids.reverse();
      const { start, end } = resolveWindow(window, ids.length);
      const records = (await ctx.load(definition.id, ids.slice(start, end))).filter(
        (record): record is InstanceItem => record !== undefined,
      );
      return connectionOf(records, start, end < ids.length, () => ids.length);
    }
    const filter = await filterFor(ctx, relation.target, args.where);
    const linked = (await ctx.load(definition.id, ids)).filter(
      (record): record is InstanceItem => record !== undefined && (!filter || matchesFilter(record, filter)),
    );
    sortInstances(definition, linked, order.length ? order : byId);
    const { start, end } = resolveWindow(window, linked.length);
    return connectionOf(linked.slice(start, end), start, end < linked.length, () => linked.length);
  };
}

function toOne(relation: RelationFieldShape): Resolver {
  return async (parent, _args, ctx, info) => {
    const link = ctx.model.links.get(`${info.parentType.name}.${info.fieldName}`);
    if (!link) return null;
    const [id] = linkedIds(parent, link.relationId, link.side).sort();
    if (id === undefined || !(await ctx.readable(relation.target))) return null;
    const [record] = await ctx.load(definitionOrThrow(ctx, relation.target).id, [id]);
    return record ?? null;
  };
}

/** A stored value as the field's type shows it; a value of another type (an older definition) is null. */
/** JSON text with object keys in alphabetical order at every level (the store keeps no key order). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(
          Object.entries(inner as Record<string, unknown>).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)),
        )
      : inner,
  );
}

function converterOf(
  output: OutputShape,
  enumValues: ReadonlySet<string> | undefined,
): (value: unknown) => unknown {
  if (output.json) return canonicalJson;
  if (enumValues) return (value) => (typeof value === 'string' && enumValues.has(value) ? value : null);
  switch (output.scalar) {
    case 'Float':
      return (value) => (typeof value === 'number' && Number.isFinite(value) ? value : null);
    case 'Boolean':
      return (value) => (typeof value === 'boolean' ? value : null);
    default:
      return (value) => (typeof value === 'string' ? value : null);
  }
}

function propertyResolver(
  property: PropertyFieldShape,
  enumValues: ReadonlySet<string> | undefined,
): Resolver {
  const convert = converterOf(property.output, enumValues);
  return (record) => {
    const value = (record.data as Record<string, unknown> | undefined)?.[property.name];
    if (value === undefined || value === null) return null;
    if (!property.output.list) return convert(value);
    return Array.isArray(value) ? value.map((element) => (element === null ? null : convert(element))) : null;
  };
}

/** The resolver map of a shape for @graphql-tools/schema. */
export function resolversOf(shape: SchemaShape): Record<string, Record<string, unknown>> {
  if (shape.types.length === 0) return { Query: { _empty: () => null } };
  const resolvers: Record<string, Record<string, unknown>> = {
    ...(customScalars as unknown as Record<string, Record<string, unknown>>),
    Query: {},
  };
  const query = resolvers.Query as Record<string, unknown>;
  for (const type of shape.types) {
    query[type.name] = (_root: unknown, args: Args, ctx: GraphQLContext, info: GraphQLResolveInfo) =>
      rootConnection(type.name, args, ctx, info);
    const fields: Record<string, unknown> = {};
    const enums = new Map(
      type.enums.map((one) => [one.name, new Set(one.values.map((value) => value.value))]),
    );
    for (const property of type.properties) {
      fields[property.field] = propertyResolver(property, enums.get(property.output.type));
    }
    for (const relation of type.relations) {
      fields[relation.field] = relation.many ? nestedConnection(relation) : toOne(relation);
    }
    resolvers[type.name] = fields;
    for (const one of type.enums) {
      resolvers[one.name] = Object.fromEntries(one.values.map((value) => [value.name, value.value]));
    }
  }
  return resolvers;
}
