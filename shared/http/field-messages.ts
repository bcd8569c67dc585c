/**
 * The words of a field error. Integrators read `errors[].detail` next to the pointer, so it is
 * written in the service's own terms ("must be a UUID", "must hold at most 1000 items"), never
 * the validation library's ("Invalid input: expected string, received undefined"), which also
 * changes with the library's releases. Messages a schema states itself (its checks) win; this
 * covers every built-in rule. Used as zod's per-parse error map (validation.ts).
 */
import type { z } from 'zod';

type Issue = z.core.$ZodRawIssue;

const typeNames: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  bigint: 'an integer',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  date: 'a date',
  null: 'null',
  undefined: 'absent',
  record: 'an object',
  tuple: 'an array',
  literal: 'the stated value',
  nan: 'a number',
  never: 'absent',
};

const formatNames: Record<string, string> = {
  uuid: 'a UUID (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)',
  guid: 'a UUID (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)',
  email: 'an e-mail address',
  url: 'an absolute URL',
  datetime: 'an RFC 3339 date-time such as 2026-03-02T08:15:00Z',
  date: 'a date (YYYY-MM-DD)',
  time: 'a time (HH:mm:ss)',
  duration: 'an ISO 8601 duration such as PT1H30M',
  ipv4: 'an IPv4 address',
  ipv6: 'an IPv6 address',
  base64: 'base64 text',
  base64url: 'base64url text',
  e164: 'a phone number in E.164 form (+4930123456)',
  jwt: 'a JSON Web Token',
};

function jsonTypeOf(input: unknown): string {
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'an array';
  if (typeof input === 'number') return Number.isInteger(input) ? 'an integer' : 'a number';
  if (typeof input === 'object') return 'an object';
  return `a ${typeof input}`;
}

function listOf(values: readonly unknown[]): string {
  const shown = values.slice(0, 20).map((value) => JSON.stringify(value));
  return values.length > 20 ? `${shown.join(', ')}, …` : shown.join(', ');
}

function sizeMessage(issue: Issue & { origin?: string }, bound: 'at most' | 'at least'): string {
  const limit = Number(
    (issue as { maximum?: unknown; minimum?: unknown })[bound === 'at most' ? 'maximum' : 'minimum'],
  );
  const inclusive = (issue as { inclusive?: boolean }).inclusive !== false;
  switch (issue.origin) {
    case 'string':
      return bound === 'at least' && limit === 1
        ? 'must not be empty'
        : `must be ${bound} ${limit} characters long`;
    case 'array':
    case 'set':
      return `must hold ${bound} ${limit} item${limit === 1 ? '' : 's'}`;
    case 'object':
    case 'record':
      return `must hold ${bound} ${limit} key${limit === 1 ? '' : 's'}`;
    default: {
      const comparison =
        bound === 'at most' ? (inclusive ? 'at most' : 'less than') : inclusive ? 'at least' : 'greater than';
      return `must be ${comparison} ${limit}`;
    }
  }
}

/** The message of a built-in rule's issue, in the service's words. */
export function fieldMessage(issue: Issue): string {
  const input = issue.input;
  switch (issue.code) {
    case 'invalid_type': {
      if (input === undefined) return 'is required';
      if (input === null) return 'must not be null';
      const expected = typeNames[String(issue.expected)] ?? `of type ${String(issue.expected)}`;
      return `must be ${expected}, not ${jsonTypeOf(input)}`;
    }
    case 'too_big':
      return sizeMessage(issue, 'at most');
    case 'too_small':
      return sizeMessage(issue, 'at least');
    case 'invalid_format': {
      const format = String(issue.format);
      if (format === 'regex')
        return `must match the pattern ${String((issue as { pattern?: unknown }).pattern)}`;
      if (format === 'starts_with')
        return `must start with ${JSON.stringify((issue as { prefix?: string }).prefix)}`;
      if (format === 'ends_with')
        return `must end with ${JSON.stringify((issue as { suffix?: string }).suffix)}`;
      if (format === 'includes')
        return `must contain ${JSON.stringify((issue as { includes?: string }).includes)}`;
      return `must be ${formatNames[format] ?? `in ${format} format`}`;
    }
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`;
    case 'unrecognized_keys':
      return 'is not a field of this operation';
    case 'invalid_union':
      return 'matches none of the accepted forms';
    case 'invalid_key':
      return 'has a key that is not accepted';
    case 'invalid_element':
      return 'holds a value that is not accepted';
    case 'invalid_value':
      return issue.values.length === 1
        ? `must be ${JSON.stringify(issue.values[0])}`
        : `must be one of ${listOf(issue.values)}`;
    default:
      return 'is not accepted';
  }
}
