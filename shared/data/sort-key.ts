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
