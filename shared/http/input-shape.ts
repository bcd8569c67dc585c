/**
 * Strict input, before the value rules run (API-DECISIONS.md, "Strict input"): walks a request
 * body beside its schema and reports
 * - every key the schema does not know, at its pointer, with the nearest known key as
 *   `data.suggestion` when one is a small edit away (`titel` → `title`, `lockVersion` →
 *   `lock_version`). zod's plain objects drop such keys silently, which would answer 200 for a
 *   write that changed nothing;
 * - every array longer than its schema allows, without looking inside it, so a body of 100,000
 *   elements costs one error, not 100,000 validations.
 * Objects that accept any key (records, loose objects), values the schema does not describe
 * (unknown, custom) and schemas that catch their own failures are not walked. Custom-object
 * data is checked against its definition.
 */
import type { z } from 'zod';
import type { FieldError } from './problem.ts';

interface Def {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  element?: z.ZodType;
  valueType?: z.ZodType;
  options?: readonly z.ZodType[];
  discriminator?: string;
  items?: readonly z.ZodType[];
  rest?: z.ZodType | null;
  getter?: () => z.ZodType;
  checks?: ReadonlyArray<{ _zod: { def: { check: string; maximum?: number; length?: number } } }>;
}

// Not `catch`: a schema that catches its own failures (relation batches) answers them itself.
const wrappers = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'nonoptional']);

function defOf(schema: z.ZodType): Def {
  let def = (schema as unknown as { _zod: { def: Def } })._zod.def;
  for (let depth = 0; depth < 64; depth++) {
    let next: z.ZodType | undefined;
    if (wrappers.has(def.type)) next = def.innerType;
    else if (def.type === 'pipe') next = def.in;
    else if (def.type === 'lazy') next = def.getter?.();
    if (!next) return def;
    def = (next as unknown as { _zod: { def: Def } })._zod.def;
  }
  return def;
}

function maxItemsOf(def: Def): number | undefined {
  let max: number | undefined;
  for (const check of def.checks ?? []) {
    const { check: kind, maximum, length } = check._zod.def;
    const limit = kind === 'max_length' ? maximum : kind === 'length_equals' ? length : undefined;
    if (limit !== undefined) max = max === undefined ? limit : Math.min(max, limit);
  }
  return max;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

const pointerSegment = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** Letters and digits only, lower-cased: `lockVersion`, `lock-version` and `LOCK_VERSION` meet. */
const folded = (key: string) => key.toLowerCase().replace(/[^a-z0-9]/g, '');

function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length] ?? limit + 1;
}

/** The known key a small edit away from `key`, when exactly one is nearest. */
export function nearestKey(key: string, known: readonly string[]): string | undefined {
  const target = folded(key);
  if (!target) return undefined;
  const limit = target.length <= 4 ? 1 : 2;
  let best: string | undefined;
  let bestDistance = limit + 1;
  let tie = false;
  for (const candidate of known) {
    const distance = folded(candidate) === target ? 0 : editDistance(target, folded(candidate), limit);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
      tie = false;
    } else if (distance === bestDistance) {
      tie = true;
    }
  }
  return bestDistance <= limit && !tie ? best : undefined;
}

export interface ShapeCheck {
  errors: FieldError[];
  /** Stop collecting past this many errors (the caller reports that it stopped). */
  limit: number;
  /** True when errors were left out because the limit was reached. */
  truncated: boolean;
}

function push(check: ShapeCheck, error: FieldError): boolean {
  if (check.errors.length >= check.limit) {
    check.truncated = true;
    return false;
  }
  check.errors.push(error);
  return true;
}

/** The object options of a union that a value of this shape may be meant for. */
function unionObjectShapes(def: Def, value: Record<string, unknown>): Array<Record<string, z.ZodType>> {
  const shapes: Array<Record<string, z.ZodType>> = [];
  for (const option of def.options ?? []) {
    const optionDef = defOf(option);
    if (optionDef.type !== 'object' || !optionDef.shape) continue;
    if (def.discriminator) {
      const tag = optionDef.shape[def.discriminator];
      const accepted = tag ? (tag as z.ZodType).safeParse(value[def.discriminator]).success : false;
      if (!accepted) continue;
    }
    shapes.push(optionDef.shape);
  }
  return shapes;
}

function walk(schema: z.ZodType, value: unknown, pointer: string, check: ShapeCheck): void {
  if (check.errors.length >= check.limit) {
    check.truncated = true;
    return;
  }
  const def = defOf(schema);
  if (def.type === 'object' && def.shape && isPlainObject(value)) {
    walkObject([def.shape], def.catchall, value, pointer, check);
  } else if (def.type === 'union' && isPlainObject(value)) {
    const shapes = unionObjectShapes(def, value);
    // Several object forms: a key is known when any of them knows it (the value rules then
    // decide which form the body is); none (a discriminator no form has): the value rules say so.
    if (shapes.length > 0) walkObject(shapes, undefined, value, pointer, check);
  } else if (def.type === 'array' && def.element && Array.isArray(value)) {
    const max = maxItemsOf(def);
    if (max !== undefined && value.length > max) {
      push(check, {
        type: 'field-invalid',
        pointer,
        detail: `must hold at most ${max} item${max === 1 ? '' : 's'}; it holds ${value.length}`,
        data: { max_items: max, items: value.length },
      });
      return;
    }
    for (let index = 0; index < value.length; index++) {
      walk(def.element, value[index], `${pointer}/${index}`, check);
    }
  } else if (def.type === 'record' && def.valueType && isPlainObject(value)) {
    for (const [key, inner] of Object.entries(value))
      walk(def.valueType, inner, `${pointer}/${pointerSegment(key)}`, check);
  } else if (def.type === 'tuple' && Array.isArray(value)) {
    value.forEach((inner, index) => {
      const item = def.items?.[index] ?? def.rest ?? undefined;
      if (item) walk(item, inner, `${pointer}/${index}`, check);
    });
  }
}

function walkObject(
  shapes: ReadonlyArray<Record<string, z.ZodType>>,
  catchall: z.ZodType | undefined,
  value: Record<string, unknown>,
  pointer: string,
  check: ShapeCheck,
): void {
  const catchallType = catchall ? defOf(catchall).type : undefined;
  for (const [key, inner] of Object.entries(value)) {
    const field = shapes.find((shape) => Object.hasOwn(shape, key))?.[key];
    const at = `${pointer}/${pointerSegment(key)}`;
    if (field) {
      walk(field, inner, at, check);
    } else if (catchall && catchallType !== 'never') {
      walk(catchall, inner, at, check);
    } else {
      const known = shapes.flatMap((shape) => Object.keys(shape));
      const suggestion = nearestKey(key, known);
      const added = push(check, {
        type: 'field-unknown',
        pointer: at,
        detail: suggestion
          ? `is not a field of this operation; did you mean ${suggestion}?`
          : 'is not a field of this operation',
        ...(suggestion ? { data: { suggestion } } : {}),
      });
      if (!added) return;
    }
  }
}

/**
 * The strict-input errors of a body (unknown keys, arrays over their maximum), at most `limit`.
 * The pointer root is `#`.
 */
export function shapeErrorsOf(schema: z.ZodType, value: unknown, limit: number): ShapeCheck {
  const check: ShapeCheck = { errors: [], limit, truncated: false };
  walk(schema, value, '#', check);
  return check;
}
