/**
 * What a log line must never carry, taken out where every line is formatted (logger.ts), so no
 * caller has to remember it: values under secret-looking keys (authorization, password, secret,
 * token, cookie, api key, credential, signature), and the service's credentials wherever they
 * appear in text (error messages, URLs): bearer tokens, JWTs, `whsec_` webhook secrets, `fsmi.`
 * device intake secrets, `sk_` payment provider keys, `password=`/`secret=`/`token=` pairs and
 * the word after "password".
 *
 * Ids that only name a secret (`secretArn`, `tokenId`, `token_count`) are kept: the key rule
 * matches whole words of a key, not any key that contains one.
 */

const mask = '[redacted]';

/** Keys whose value is a credential, compared by their words (`client_secret`, `x-api-key`, `Authorization`). */
const secretWords = new Set([
  'authorization',
  'password',
  'passwd',
  'secret',
  'token',
  'cookie',
  'apikey',
  'credential',
  'credentials',
  'signature',
]);
/** Words after a secret word that make the key name a secret rather than hold one. */
const nameWords = new Set([
  'arn',
  'id',
  'ids',
  'name',
  'count',
  'type',
  'version',
  'hash',
  'prefix',
  'expires',
]);

function keyWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/api[\s_-]?key/g, 'apikey')
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

const keyVerdicts = new Map<string, boolean>();

/** Whether the value under `key` is a credential. */
export function isSecretKey(key: string): boolean {
  const known = keyVerdicts.get(key);
  if (known !== undefined) return known;
  const words = keyWords(key);
  const at = words.findIndex((word) => secretWords.has(word));
  const verdict = at !== -1 && !words.slice(at + 1).some((word) => nameWords.has(word));
  if (keyVerdicts.size < 1_000) keyVerdicts.set(key, verdict);
  return verdict;
}

const textPatterns: readonly [RegExp, string][] = [
  [/\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${mask}`],
  [/\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g, mask],
  [/\bwhsec_[A-Za-z0-9+/=]+/g, `whsec_${mask}`],
  [/\bfsmi\.([0-9a-zA-Z-]{1,64})\.[A-Za-z0-9_-]+/g, `fsmi.$1.${mask}`],
  [/\b(sk|rk)_(live|test)_[A-Za-z0-9]+/g, `$1_$2_${mask}`],
  [
    /\b((?:client_)?secret|password|token|access_token|refresh_token|id_token|code)=[^&\s"']+/gi,
    `$1=${mask}`,
  ],
  // "… with password hunter2", `password: "hunter2"`: the word after a password is one.
  [/\b(password|passwd)(\s*:\s*|\s+)(["']?)[^\s"',;}]+/gi, `$1$2$3${mask}`],
];

/** Quick test before the patterns run: most lines carry none of these marks. */
const suspicious = /bearer|basic|eyJ|whsec_|fsmi\.|sk_|rk_|secret|password|token|code=/i;

/** `text` with every credential it contains replaced. */
export function redactText(text: string): string {
  if (!suspicious.test(text)) return text;
  let result = text;
  for (const [pattern, replacement] of textPatterns) result = result.replace(pattern, replacement);
  return result;
}

/**
 * `value` as it may be logged: objects and arrays copied with secret keys masked and strings
 * redacted, errors as name, message and stack (redacted), bigints as strings, at most `depth`
 * levels deep (so a circular reference ends there).
 */
export function redact(value: unknown, depth = 6): unknown {
  if (typeof value === 'string') return redactText(value);
  if (typeof value === 'bigint') return value.toString();
  if (value === null || typeof value !== 'object') return value;
  if (depth === 0) return '[nested too deep]';
  if (value instanceof Error) {
    return {
      name: value.name,
      message: redactText(value.message),
      ...(value.stack ? { stack: redactText(value.stack) } : {}),
      ...('code' in value && value.code !== undefined ? { code: value.code } : {}),
      ...(value.cause !== undefined ? { cause: redact(value.cause, depth - 1) } : {}),
    };
  }
  if (Array.isArray(value)) return value.map((item) => redact(item, depth - 1));
  if (value instanceof Date) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    copy[key] = isSecretKey(key) && item !== undefined && item !== null ? mask : redact(item, depth - 1);
  }
  return copy;
}

/**
 * Copies `attributes` into `line`, each value redacted, leaving out the empty ones (undefined,
 * null, ''), as Powertools' LogItem.prepareForPrint would: the log formatter builds the line in
 * one object this way, without a second copy, a deep merge and a pass to drop empty keys.
 * A secret key's value is masked whatever it is, unless undefined or null.
 */
export function redactInto(line: Record<string, unknown>, attributes: Record<string, unknown>): void {
  for (const key in attributes) {
    const value = attributes[key];
    if (value === undefined || value === null) continue;
    if (isSecretKey(key)) line[key] = mask;
    else if (typeof value === 'string') {
      if (value !== '') line[key] = redactText(value);
    } else if (typeof value !== 'object') line[key] = typeof value === 'bigint' ? value.toString() : value;
    else line[key] = redact(value);
  }
}
