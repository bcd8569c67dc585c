/**
 * What one GraphQL query may ask for, checked after validation and before anything is read:
 *
 * - depth: at most 12 levels of fields (fragments add none; introspection fields, which GraphQL's
 *   own MaxIntrospectionDepthRule bounds, and `__typename` count none). A connection costs three
 *   levels (the field, `edges`, `node`), so three nested connections and a field of the innermost
 *   node fit; error code DEPTH_LIMIT_EXCEEDED;
 * - complexity: the records a query may return, estimated as the sum over its connection and
 *   to-one fields of the rows each may yield: a connection its page size (`first` or `last`,
 *   the smaller when both; 20 at the root and 10 nested when neither) times the rows of the
 *   connections around it, a to-one field one row per row around it. At most 20,000; error code
 *   COMPLEXITY_LIMIT_EXCEEDED. `first: 1000` with a to-one relation is 2,000; three nested
 *   connections with the default sizes 20 × 10 × 10 are 2,220.
 */
import {
  type FieldNode,
  type FragmentDefinitionNode,
  GraphQLError,
  type GraphQLObjectType,
  type GraphQLSchema,
  getNamedType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';
import { nestedPageSize, rootPageSize } from './paging.ts';

export const maxDepth = 12;
export const maxComplexity = 20_000;

export interface LimitInput {
  schema: GraphQLSchema;
  operation: OperationDefinitionNode;
  fragments: ReadonlyMap<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
  /** Whether a type name is a connection type (`<slug>Connection`). */
  isConnection: (typeName: string) => boolean;
  /** Whether a type name is a record type (`<slug>`): its object fields are to-one relations. */
  isNode: (typeName: string) => boolean;
}

function intArgument(node: FieldNode, name: string, variables: Record<string, unknown>): number | undefined {
  const argument = node.arguments?.find((candidate) => candidate.name.value === name);
  if (!argument) return undefined;
  const value: ValueNode = argument.value;
  if (value.kind === Kind.INT) return Number(value.value);
  if (value.kind === Kind.VARIABLE) {
    const variable = variables[value.name.value];
    return typeof variable === 'number' ? variable : undefined;
  }
  return undefined;
}

function pageSizeOf(node: FieldNode, nested: boolean, variables: Record<string, unknown>): number {
  const first = intArgument(node, 'first', variables);
  const last = intArgument(node, 'last', variables);
  const sizes = [first, last]
    .filter((size): size is number => size !== undefined)
    .map((size) => Math.max(0, size));
  return sizes.length > 0 ? Math.min(...sizes) : nested ? nestedPageSize : rootPageSize;
}

/** The limit errors of an operation (none: within the limits). */
export function limitErrors(input: LimitInput): GraphQLError[] {
  let deepest = 0;
  let deepestNode: FieldNode | undefined;
  let rows = 0;

  const walk = (
    selectionSet: SelectionSetNode,
    parent: GraphQLObjectType,
    depth: number,
    multiplier: number,
    inConnection: boolean,
    spread: ReadonlySet<string>,
  ) => {
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.INLINE_FRAGMENT) {
        const condition = selection.typeCondition
          ? input.schema.getType(selection.typeCondition.name.value)
          : parent;
        if (isObjectType(condition))
          walk(selection.selectionSet, condition, depth, multiplier, inConnection, spread);
        continue;
      }
      if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const name = selection.name.value;
        const fragment = input.fragments.get(name);
        if (!fragment || spread.has(name)) continue;
        const condition = input.schema.getType(fragment.typeCondition.name.value);
        if (isObjectType(condition)) {
          walk(fragment.selectionSet, condition, depth, multiplier, inConnection, new Set([...spread, name]));
        }
        continue;
      }
      const name = selection.name.value;
      if (name.startsWith('__')) continue;
      const level = depth + 1;
      if (level > deepest) {
        deepest = level;
        deepestNode = selection;
      }
      const field = parent.getFields()[name];
      if (!field || !selection.selectionSet) continue;
      const type = getNamedType(field.type);
      if (!isObjectType(type)) continue;
      let next = multiplier;
      if (input.isConnection(type.name)) {
        next = multiplier * pageSizeOf(selection, inConnection, input.variables);
        rows += next;
        walk(selection.selectionSet, type, level, next, true, spread);
        continue;
      }
      // A node of the schema's object types (not an edge or pageInfo): a to-one relation.
      if (input.isNode(parent.name)) rows += multiplier;
      walk(selection.selectionSet, type, level, next, inConnection, spread);
    }
  };

  const root = input.schema.getQueryType();
  if (root) walk(input.operation.selectionSet, root, 0, 1, false, new Set());

  const errors: GraphQLError[] = [];
  if (deepest > maxDepth) {
    errors.push(
      new GraphQLError(
        `The query is ${deepest} levels deep; at most ${maxDepth} are allowed (a connection costs 3: the field, edges and node).`,
        {
          ...(deepestNode ? { nodes: [deepestNode] } : {}),
          extensions: { code: 'DEPTH_LIMIT_EXCEEDED', maxDepth, depth: deepest },
        },
      ),
    );
  }
  if (rows > maxComplexity) {
    errors.push(
      new GraphQLError(
        `The query may return about ${rows} records; at most ${maxComplexity} are allowed. Ask for smaller pages (first/last) or fewer nested connections.`,
        { extensions: { code: 'COMPLEXITY_LIMIT_EXCEEDED', maxComplexity, complexity: rows } },
      ),
    );
  }
  return errors;
}
