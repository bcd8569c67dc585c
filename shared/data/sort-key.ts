/**
 * Sort keys of the list indexes. DynamoDB orders string keys by their UTF-8 bytes, so the order
 * a list promises is built into the key:
 *
 * - text is folded: accents removed (NFKD, combining marks dropped), lower case, so "Öztürk",
 *   "ozturk" and "OZTÜRK" sort together;
 * - runs of digits compare by value: leading zeros dropped, padded to 16 digits ("Level 2"
 *   before "Level 10");
 * - each text part is cut at 120 characters (a key holds at most 1,024 bytes);
 * - parts are joined by U+0001, below every character a value can hold, so "Berg" sorts before
 *   "Bergmann" whatever follows; the record's id comes last and breaks every tie.
 *
 * Timestamps are ISO 8601 strings of one length (`toISOString`), so their bytes already order
 * them by time.
 */

const separator = '\u0001';
const maxPartChars = 120;

/** Text as lists compare it (see above). */
export function foldedText(value: string | undefined): string {
  return (value ?? '')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/\d+/g, (digits) => digits.replace(/^0+(?=\d)/, '').padStart(16, '0'))
    .slice(0, maxPartChars);
}

/** Text folded for matching (search): as `foldedText`, but digits stay as typed. */
export function foldedWord(value: string): string {
  return value.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/** A string sort key: the parts in order of significance, then the id. */
export function sortKeyOf(parts: readonly string[], id: string): string {
  return [...parts, id].join(separator);
}

/** The most significant part of a sort key: what ties are grouped by. */
export function leadingPart(sortKey: string): string {
  const end = sortKey.indexOf(separator);
  return end === -1 ? sortKey : sortKey.slice(0, end);
}

const isSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdfff;

/**
 * Compares two keys as DynamoDB does: by their UTF-8 bytes, which is code point order. JavaScript's
 * `<` compares UTF-16 units, which differs above U+FFFF: a character beyond it (a surrogate pair,
 * U+D800–U+DFFF) sorts before U+E000–U+FFFF in units and after them in bytes. So a merge of
 * index partitions, or a bound chosen in memory, that used `<` would disagree with the order and
 * the resumption of DynamoDB's own Query for such keys.
 */
export function compareBytes(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // A surrogate (half of a character above U+FFFF) outranks any other unit; two of them, or two
    // others, compare by value (pairs with one first half compare by their second).
    const xs = isSurrogate(x);
    if (xs !== isSurrogate(y)) return xs ? 1 : -1;
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}
