/**
 * Puts response keys in the order the published schema declares them (id first, then the
 * fields, then bookkeeping), whatever order the store returned them in: responses read the
 * same every time, which people comparing payloads and diffing logs rely on. Keys the schema
 * does not declare (open records) are kept after the declared ones.
 */
import type { z } from 'zod';

interface Def {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
}

function unwrap(schema: z.ZodType): Def {
  let def = (schema as unknown as { _zod: { def: Def } })._zod.def;
  for (;;) {
    const inner = def.innerType ?? (def.type === 'pipe' ? def.in : undefined);
    if (!inner) return def;
    def = (inner as unknown as { _zod: { def: Def } })._zod.def;
  }
}

export function inSchemaOrder(value: unknown, schema: z.ZodType): unknown {
  const def = unwrap(schema);
  if (def.type === 'array' && def.element && Array.isArray(value)) {
    const element = def.element;
    return value.map((item) => inSchemaOrder(item, element));
  }
  if (
    def.type === 'object' &&
    def.shape &&
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value)
  ) {
    const source = value as Record<string, unknown>;
    const ordered: Record<string, unknown> = {};
    for (const [key, fieldSchema] of Object.entries(def.shape)) {
      if (key in source) ordered[key] = inSchemaOrder(source[key], fieldSchema);
    }
    for (const key of Object.keys(source)) if (!(key in ordered)) ordered[key] = source[key];
    return ordered;
  }
  return value;
}
