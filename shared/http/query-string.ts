/**
 * Query parsing from `rawQueryString`. API Gateway joins repeated keys with commas in
 * `queryStringParameters`, which would make `ids=a&ids=b`, `ids=a,b` and `ids=a%2Cb`
 * indistinguishable; the raw string keeps them apart, which SPEC.md's array and sort rules need.
 */
export interface QueryValue {
  /** The decoded value. */
  value: string;
  /** True when the raw (still encoded) value held a literal `,`. */
  hasLiteralComma: boolean;
}

export type ParsedQuery = Map<string, QueryValue[]>;

export function parseQueryString(raw: string | undefined): ParsedQuery {
  const query: ParsedQuery = new Map();
  if (!raw) return query;
  for (const part of raw.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const rawKey = eq === -1 ? part : part.slice(0, eq);
    const rawValue = eq === -1 ? '' : part.slice(eq + 1);
    const key = decode(rawKey);
    const entry: QueryValue = { value: decode(rawValue), hasLiteralComma: rawValue.includes(',') };
    const list = query.get(key);
    if (list) list.push(entry);
    else query.set(key, [entry]);
  }
  return query;
}

function decode(component: string): string {
  try {
    return decodeURIComponent(component.replace(/\+/g, ' '));
  } catch {
    // A malformed escape is kept verbatim; validation then reports the odd value.
    return component;
  }
}
