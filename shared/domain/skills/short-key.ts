/**
 * Skill short keys: the compact label of a skill (`ESC` for "Electrical Safety Check").
 * Unique in a workspace regardless of letter case, so two keys that only differ in case would
 * read the same on a technician's badge.
 */

export const shortKeyMaxLength = 16;

/** Used when a name has no letter or digit to take an initial from (e.g. only emoji). */
const fallbackShortKey = 'SKILL';

/**
 * The initials of the name's words, upper case, letters and digits only, at most 16.
 * Words are separated by anything that is not a letter or digit, so "Multi-phase wiring"
 * gives `MPW` and "C++ basics" gives `CB`.
 */
export function deriveShortKey(name: string): string {
  const words = name.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  // Upper-casing may expand a letter (ß → SS) or yield a non-letter; keep letters and digits only.
  const initials = words
    .map((word) => Array.from(word)[0] ?? '')
    .join('')
    .toUpperCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
  return Array.from(initials).slice(0, shortKeyMaxLength).join('') || fallbackShortKey;
}

/** The form two short keys are compared in. */
export function shortKeyIdentity(shortKey: string): string {
  return shortKey.trim().toUpperCase();
}

/**
 * A derived key made unique against the keys in use by appending 2, 3, …, so creating
 * "Welding" after "Wiring" gives `W2` instead of a conflict on a field the client never sent.
 */
export function uniqueShortKey(derived: string, taken: Iterable<string>): string {
  const used = new Set(Array.from(taken, shortKeyIdentity));
  if (!used.has(shortKeyIdentity(derived))) return derived;
  for (let n = 2; ; n++) {
    const suffix = String(n);
    const base = Array.from(derived)
      .slice(0, shortKeyMaxLength - suffix.length)
      .join('');
    const candidate = `${base}${suffix}`;
    if (!used.has(shortKeyIdentity(candidate))) return candidate;
  }
}
