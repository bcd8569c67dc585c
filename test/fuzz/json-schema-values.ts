/**
 * Values for a JSON Schema of the OpenAPI document: plausible ones (which the service should
 * mostly accept) and hostile ones (wrong types, nulls, blanks, overlong and odd strings, numbers
 * out of range), drawn from a seeded generator so a run can be repeated.
 */

export type Schema = Record<string, any>;

/** A small seeded PRNG (mulberry32): the same seed gives the same sequence of choices. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  uuid(): string {
    const hex = Array.from({ length: 32 }, () => this.int(0, 15).toString(16)).join('');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${'89ab'[this.int(0, 3)]}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  }

  word(min = 3, max = 12): string {
    const letters = 'abcdefghijklmnopqrstuvwxyz';
    return Array.from({ length: this.int(min, max) }, () => letters[this.int(0, 25)]).join('');
  }
}

/** Strings that have broken parsers, validators and stores elsewhere. */
export const hostileStrings = [
  '',
  '   ',
  '\t\n',
  '\u0000',
  'a\u0000b',
  '\u202eevil',
  '😀🎉👍🏽',
  "'; DROP TABLE users; --",
  '../../../etc/passwd',
  '%00%2e%2e',
  '<script>alert(1)</script>',
  '{"$ne":null}',
  'null',
  'NaN',
  '-1',
  '1e309',
  '#zzzzzz',
  'a'.repeat(300),
  'ü'.repeat(3000),
  'x'.repeat(20_000),
  '\ud800',
  'A:B,C',
];

export interface ValueContext {
  random: Random;
  /** Resolves `#/components/schemas/...` references. */
  resolve(schema: Schema): Schema;
  /** An id of an existing record for a property or parameter name (`tag_ids`, `skill_id`), if known. */
  knownId(name: string): string | undefined;
}

/** A value the schema allows, as far as the schema says (rules it does not state may still fail). */
export function plausibleValue(schema: Schema, ctx: ValueContext, name = '', depth = 0): unknown {
  const s = ctx.resolve(schema);
  const examples = [...(Array.isArray(s.examples) ? s.examples : []), ...('example' in s ? [s.example] : [])];
  if (examples.length > 0 && ctx.random.chance(0.5)) return structuredClone(ctx.random.pick(examples));
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return ctx.random.pick(s.enum);
  const variants = s.anyOf ?? s.oneOf;
  if (Array.isArray(variants)) {
    const concrete = variants.filter((v: Schema) => ctx.resolve(v).type !== 'null');
    return plausibleValue(ctx.random.pick(concrete.length ? concrete : variants), ctx, name, depth);
  }
  if (Array.isArray(s.allOf) && s.allOf.length > 0) return plausibleValue(s.allOf[0], ctx, name, depth);
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type;
  switch (type) {
    case 'object': {
      const result: Record<string, unknown> = {};
      const required = new Set<string>(s.required ?? []);
      for (const [key, inner] of Object.entries<Schema>(s.properties ?? {})) {
        if (required.has(key) || (depth < 3 && ctx.random.chance(0.5))) {
          result[key] = plausibleValue(inner, ctx, key, depth + 1);
        }
      }
      return result;
    }
    case 'array': {
      const min = s.minItems ?? 0;
      const max = Math.min(s.maxItems ?? 3, min + 3);
      const values = Array.from({ length: ctx.random.int(min, max) }, () =>
        plausibleValue(s.items ?? {}, ctx, singular(name), depth + 1),
      );
      return s.uniqueItems
        ? [...new Set(values.map((v) => JSON.stringify(v)))].map((v) => JSON.parse(v))
        : values;
    }
    case 'integer': {
      const min = Math.max(s.minimum ?? 0, -1_000_000);
      const max = Math.min(s.maximum ?? min + 50, 1_000_000);
      return ctx.random.int(min, max);
    }
    case 'number':
      return ctx.random.int(-90, 90) + ctx.random.next();
    case 'boolean':
      return ctx.random.chance(0.5);
    case 'string':
      return plausibleString(s, ctx, name);
    default:
      return ctx.random.word();
  }
}

function plausibleString(s: Schema, ctx: ValueContext, name: string): string {
  switch (s.format) {
    case 'uuid':
      return ctx.knownId(name) ?? ctx.random.uuid();
    case 'email':
      return `fuzz-${ctx.random.word(6, 10)}@fuzz.test`;
    case 'date-time':
      return new Date(
        Date.UTC(2026, ctx.random.int(0, 11), ctx.random.int(1, 28), ctx.random.int(0, 23)),
      ).toISOString();
    case 'date':
      return `2026-0${ctx.random.int(1, 9)}-1${ctx.random.int(0, 9)}`;
    case 'uri':
      return `https://${ctx.random.word()}.example/${ctx.random.word()}`;
    default:
      break;
  }
  if (/color/.test(name)) return `#${ctx.random.int(0, 0xffffff).toString(16).padStart(6, '0')}`;
  if (/phone/.test(name)) return `+49 30 ${ctx.random.int(1000000, 9999999)}`;
  const min = s.minLength ?? 1;
  const max = Math.min(s.maxLength ?? 24, 24);
  return ctx.random.word(Math.min(min, max), Math.max(min, max));
}

/** A value the schema should refuse, or one at the edges of what it allows. */
export function hostileValue(schema: Schema, ctx: ValueContext): unknown {
  const s = ctx.resolve(schema);
  const { random } = ctx;
  const generic: unknown[] = [null, true, 0, -1, 1.5, 2 ** 53, -(2 ** 63), '1', [], {}, [null], { a: 1 }];
  const typed: unknown[] = [];
  if (s.type === 'string' || s.format) typed.push(...hostileStrings, random.uuid().toUpperCase(), 12345);
  if (s.type === 'integer' || s.type === 'number') {
    typed.push(
      (s.minimum ?? 0) - 1,
      (s.maximum ?? 2 ** 31) + 1,
      1e308,
      -0,
      0.1,
      '7',
      Number.MAX_SAFE_INTEGER + 2,
    );
  }
  if (s.type === 'array') {
    typed.push(
      Array.from({ length: (s.maxItems ?? 1000) + 1 }, () => random.uuid()),
      // The same id twice: unique-items rules.
      Array.from({ length: 2 }, () => random.uuid()).fill(random.uuid()),
      ['a,b'],
      [[]],
      'not-an-array',
    );
  }
  if (Array.isArray(s.enum)) typed.push(String(s.enum[0]).toLowerCase(), `${s.enum[0]} `, 'UNKNOWN_VALUE');
  return random.pick(typed.length > 0 && random.chance(0.7) ? typed : generic);
}

/** Deeply nested JSON: parsers and validators that recurse must not fall over. */
export function deeplyNested(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
}

function singular(name: string): string {
  return name.endsWith('s') ? name.slice(0, -1) : name;
}
