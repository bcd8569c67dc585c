/**
 * How custom-object names become GraphQL names (SPEC.md, GraphQL API, "Name sanitizing" and
 * "Type names"), and which names a definition may not take because the generated schema would
 * break on them at run time (Twenty's users hit exactly that: a reserved name accepted when saved,
 * a schema that failed to build on the next query). Checked when a definition is saved, so a bad
 * name is a 422 that names the field, never a broken GraphQL endpoint.
 */

/** `[_A-Za-z][_0-9A-Za-z]*`: every other character becomes `_`, a leading digit gets a `_` prefix. */
export function graphqlName(name: string): string {
  const replaced = name.replace(/[^_0-9A-Za-z]/g, '_');
  return /^[0-9]/.test(replaced) ? `_${replaced}` : replaced;
}

/** Names GraphQL itself or every generated schema defines. */
export const builtInTypeNames = [
  'Query',
  'Mutation',
  'Subscription',
  'Int',
  'Float',
  'String',
  'Boolean',
  'ID',
  'Long',
  'Date',
  'Time',
  'DateTime',
  'PageInfo',
  'OrderDirection',
  // The comparison inputs of GraphQL filters (shared/graphql/schema-model.ts `comparisonTypes`).
  'String_comparison_exp',
  'ID_comparison_exp',
  'Date_comparison_exp',
  'Time_comparison_exp',
  'DateTime_comparison_exp',
  'Float_comparison_exp',
  'Boolean_comparison_exp',
  'Enum_comparison_exp',
] as const;

/** Suffixes of the types generated for a definition `<slug>`. */
export const generatedSuffixes = ['Connection', 'Edge', 'Filter', 'OrderBy'] as const;

/** Fields every generated object type has; a property of the same (sanitized) name would shadow one. */
export const systemFields = ['id', 'created_at', 'updated_at', 'lock_version'] as const;

/** The generated type names of a definition: its object, connection, edge, filter and order types. */
export function typeNamesOf(slug: string): string[] {
  const base = graphqlName(slug);
  return [base, ...generatedSuffixes.map((suffix) => `${base}${suffix}`)];
}

/**
 * Why a slug cannot name a definition, or undefined when it can: a GraphQL built-in or generated
 * scalar, a name beginning with `__` (reserved for introspection), or a name whose generated types
 * collide with those of another definition of the workspace. Still to add with the schema
 * generator (issue 14): the enum and nested-object types (`<slug>_<field>`, `<slug>_<field>Filter`),
 * which a definition slugged `invoice_status` can collide with.
 */
export function slugCollision(slug: string, otherSlugs: readonly string[]): string | undefined {
  const name = graphqlName(slug);
  // Exact: GraphQL names are case-sensitive, so `date` is a fine slug beside the scalar Date.
  const builtIn = builtInTypeNames.find((reserved) => reserved === name);
  if (builtIn) return `is the GraphQL type ${builtIn}, which every workspace schema already defines`;
  if (name.startsWith('__')) return 'starts with __, which GraphQL reserves for introspection';
  if (name === '_empty') return 'is the placeholder field of an empty schema';
  const own = new Set(typeNamesOf(slug));
  for (const other of otherSlugs) {
    if (other === slug) continue;
    const clash = typeNamesOf(other).find((generated) => own.has(generated));
    if (clash) return `would generate the GraphQL type ${clash}, which definition ${other} generates too`;
  }
  return undefined;
}

/**
 * Every GraphQL type name a definition generates: its object, connection, edge, filter and order
 * types, an enum `<slug>_<field>` per enum property and the filter and order inputs
 * `<slug>_<field>Filter` / `<slug>_<field>OrderBy` per object property (nested ones joined by
 * `_`). A definition whose names meet another's would break the workspace schema.
 */
export function generatedTypeNames(definition: {
  slug: string;
  properties: Record<string, unknown>;
}): string[] {
  const names = typeNamesOf(definition.slug);
  const walk = (prefix: string, properties: Record<string, unknown>) => {
    for (const [name, schema] of Object.entries(properties)) {
      const property = (schema ?? {}) as Record<string, unknown>;
      const base = `${prefix}_${graphqlName(name)}`;
      if (property.type === 'string' && Array.isArray(property.enum) && property.enum.length > 0)
        names.push(base);
      if (property.type === 'object' && property.properties && typeof property.properties === 'object') {
        names.push(`${base}Filter`, `${base}OrderBy`);
        walk(base, property.properties as Record<string, unknown>);
      }
    }
  };
  walk(graphqlName(definition.slug), definition.properties);
  return names;
}

/** The first generated name two definitions share, or undefined. */
export function sharedTypeName(
  definition: { slug: string; properties: Record<string, unknown> },
  others: ReadonlyArray<{ slug: string; properties: Record<string, unknown> }>,
): { name: string; other: string } | undefined {
  const own = new Set(generatedTypeNames(definition));
  for (const other of others) {
    const clash = generatedTypeNames(other).find((name) => own.has(name));
    if (clash) return { name: clash, other: other.slug };
  }
  return undefined;
}
