/**
 * Where the identity provider's token-signing key comes from.
 *
 * Locally the key lives in a file under the data folder, generated on first use, so tokens
 * issued before a restart still verify after it (the JWKS keeps the same `kid`).
 */
import { createHash, generateKeyPair, type JsonWebKey, randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { promisify } from 'node:util';

export type { JsonWebKey } from 'node:crypto';

export interface SigningKeyStore {
  /**
   * The private signing keys as a JWKS, first key used for signing. Every key carries `kid`,
   * `alg` and `use: 'sig'`. The result is secret material: never log or publish it (the
   * provider publishes only the public parts at `/protocol/openid-connect/certs`).
   */
  privateJwks(): Promise<{ keys: JsonWebKey[] }>;
}

const generateRsaKeyPair = promisify(generateKeyPair);

/**
 * A key store backed by one JSON file (a JWKS with one private RS256 RSA-2048 key).
 * The file is created on first use with mode 0600 (its folder with 0700 when missing) and read
 * back on every later start. Creation is race-free: the key is written to a temporary file and
 * hard-linked into place, so when two processes start at once both end up with the same key.
 */
export function fileSigningKeyStore(file: string): SigningKeyStore {
  let loaded: Promise<{ keys: JsonWebKey[] }> | undefined;
  return {
    privateJwks() {
      loaded ??= loadOrCreate(file).catch((error: unknown) => {
        loaded = undefined; // let a later call retry (e.g. after the folder became writable)
        throw error;
      });
      return loaded;
    },
  };
}

async function loadOrCreate(file: string): Promise<{ keys: JsonWebKey[] }> {
  const existing = await readJwks(file);
  if (existing) return existing;

  const jwks = { keys: [await generateSigningKey()] };
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temporary, `${JSON.stringify(jwks, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  try {
    await link(temporary, file);
    return jwks;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // Another process created the key first: use theirs.
    const winner = await readJwks(file);
    if (!winner) throw new Error(`signing key file ${file} appeared but could not be read`);
    return winner;
  } finally {
    await unlink(temporary).catch(() => {});
  }
}

async function readJwks(file: string): Promise<{ keys: JsonWebKey[] } | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const parsed = JSON.parse(text) as { keys?: unknown };
  const keys = parsed.keys;
  if (
    !Array.isArray(keys) ||
    keys.length === 0 ||
    !keys.every((key: JsonWebKey) => key && key.kty === 'RSA' && typeof key.d === 'string' && key.kid)
  ) {
    // Do not echo the content: it is a private key.
    throw new Error(`signing key file ${file} does not hold a JWKS of private RSA keys`);
  }
  return { keys: keys as JsonWebKey[] };
}

/** A fresh RS256 RSA-2048 private JWK whose `kid` is its RFC 7638 thumbprint. */
export async function generateSigningKey(): Promise<JsonWebKey> {
  const { privateKey } = await generateRsaKeyPair('rsa', { modulusLength: 2048 });
  const jwk = privateKey.export({ format: 'jwk' });
  return { ...jwk, kid: thumbprint(jwk), alg: 'RS256', use: 'sig' };
}

function thumbprint(jwk: JsonWebKey): string {
  // RFC 7638: the required public members in lexicographic order, no whitespace.
  const canonical = JSON.stringify({ e: jwk.e, kty: jwk.kty, n: jwk.n });
  return createHash('sha256').update(canonical).digest('base64url');
}

/**
 * A key store over a JWKS handed in by the platform (on AWS: Secrets Manager, injected into the
 * container's environment). Checked once, at start, so a broken secret fails the deployment's
 * health check instead of the first login.
 */
export function staticSigningKeyStore(jwksJson: string): SigningKeyStore {
  let jwks: { keys?: unknown };
  try {
    jwks = JSON.parse(jwksJson) as { keys?: unknown };
  } catch {
    throw new Error('the signing JWKS is not valid JSON');
  }
  const keys = jwks.keys;
  if (
    !Array.isArray(keys) ||
    keys.length === 0 ||
    !keys.every((k) => typeof k === 'object' && k && 'd' in k)
  ) {
    throw new Error('the signing JWKS must hold at least one private key');
  }
  const value = { keys: keys as JsonWebKey[] };
  return { privateJwks: async () => value };
}
