/**
 * The custom scalars every generated schema defines (SPEC.md, scalar mapping): Long (totalCount,
 * a JSON number, never an Int), Date (`YYYY-MM-DD`), Time (`HH:mm:ss[.sss]`, an offset allowed)
 * and DateTime (RFC 3339). Inputs are checked for their format: a filter operand that is not one
 * is a GraphQL error naming the value, never a silent non-match.
 */
import { GraphQLScalarType, Kind, type ValueNode } from 'graphql';

const datePattern = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const timePattern = /^([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):?[0-5]\d)?$/;
const dateTimePattern =
  /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[Tt ]([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)$/;

function textScalar(name: string, description: string, pattern: RegExp, specifiedByURL?: string) {
  const check = (value: unknown): string => {
    if (typeof value !== 'string' || !pattern.test(value)) {
      throw new TypeError(`${name} cannot represent ${JSON.stringify(value)}: ${description}`);
    }
    return value;
  };
  return new GraphQLScalarType<string, string>({
    name,
    description,
    ...(specifiedByURL ? { specifiedByURL } : {}),
    coerceOutputValue: (value) => {
      if (typeof value !== 'string') throw new TypeError(`${name} cannot represent a non-string value`);
      return value;
    },
    coerceInputValue: check,
    coerceInputLiteral: (node: ValueNode) => {
      if (node.kind !== Kind.STRING) throw new TypeError(`${name} is written as a string: ${description}`);
      return check(node.value);
    },
  });
}

export const DateScalar = textScalar('Date', 'A calendar date, YYYY-MM-DD.', datePattern);
export const TimeScalar = textScalar(
  'Time',
  'A time of day, HH:mm:ss or HH:mm:ss.sss (an offset such as Z or +02:00 allowed).',
  timePattern,
);
export const DateTimeScalar = textScalar(
  'DateTime',
  'A date-time in RFC 3339, YYYY-MM-DDTHH:mm:ss[.sss] with Z or an offset +HH:mm / -HH:mm.',
  dateTimePattern,
  'https://datatracker.ietf.org/doc/html/rfc3339',
);

const maxLong = Number.MAX_SAFE_INTEGER;

function checkLong(value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || Math.abs(value) > maxLong) {
    throw new TypeError(`Long cannot represent ${JSON.stringify(value)}: an integer of at most 2^53 - 1`);
  }
  return value;
}

export const LongScalar = new GraphQLScalarType<number, number>({
  name: 'Long',
  description: 'A 64-bit integer, serialized as a JSON number (exact up to 2^53 - 1).',
  coerceOutputValue: checkLong,
  coerceInputValue: checkLong,
  coerceInputLiteral: (node: ValueNode) => {
    if (node.kind !== Kind.INT) throw new TypeError('Long is written as an integer');
    return checkLong(Number(node.value));
  },
});

export const customScalars = {
  Long: LongScalar,
  Date: DateScalar,
  Time: TimeScalar,
  DateTime: DateTimeScalar,
} as const;
