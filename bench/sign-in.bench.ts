/**
 * `npm run bench:sign-in`: what signing in costs through the whole local stack. Measures, one
 * request at a time (p50 / p95 over BENCH_SAMPLES rounds, interleaved):
 *   - a client-credentials token (no password, one client lookup),
 *   - the authorization-code flow as a browser runs it: authorize → login page → form post
 *     (scrypt verify, counters) → redirect with the code → code exchange with PKCE,
 *   - the form post alone, with the right and with a wrong password (both pay one scrypt),
 *   - a refresh_token grant (account re-checked).
 * Prints figures; asserts nothing.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService } from '../shared/local-stack/service-process.ts';

const samples = Number(process.env.BENCH_SAMPLES ?? 40);
const redirectUri = 'http://127.0.0.1:8765/callback';
const client = { id: 'bench-web', secret: 'bench-secret-1' };
const user = { email: 'bench@bench.test', password: 'bench-password-1' };

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? 0;

/** A browser's cookie jar, just enough for the provider's interaction and session cookies. */
class Browser {
  readonly #cookies = new Map<string, string>();

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const cookie = [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), ...(cookie ? { cookie } : {}) },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair?.indexOf('=') ?? -1;
      if (pair && at > 0) this.#cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return response;
  }
}

const dataDir = await mkdtemp(join(tmpdir(), 'fsm-bench-sign-in-'));
const seedFile = join(dataDir, 'seed.json');
await writeFile(
  seedFile,
  JSON.stringify({
    workspaces: [
      {
        name: 'Bench Co',
        users: [{ ...user, firstname: 'Ben', lastname: 'Bench', roles: ['admin'] }],
        clients: [
          {
            client_id: client.id,
            client_secret: client.secret,
            roles: ['admin'],
            redirect_uris: [redirectUri],
          },
        ],
      },
    ],
  }),
);
// A bench must not block its own user: failures are reset by every successful sign-in.
const service = await startService({ DATA_DIR: dataDir, FSM_SEED: seedFile, LOG_LEVEL: 'error' });
const issuer = `${service.baseUrl}/realms/shared`;
const tokenEndpoint = `${issuer}/protocol/openid-connect/token`;
const basic = `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`;

async function tokenRequest(fields: Record<string, string>): Promise<Record<string, string>> {
  const response = await fetch(tokenEndpoint, {
    method: 'POST',
    headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });
  const json = (await response.json()) as Record<string, string>;
  if (!response.ok) throw new Error(`token endpoint ${response.status}: ${JSON.stringify(json)}`);
  return json;
}

/** Opens the login page of a fresh authorization request; returns the form's action. */
async function openLoginPage(browser: Browser, challenge: string): Promise<string> {
  const authorize = new URL(`${issuer}/protocol/openid-connect/auth`);
  for (const [name, value] of Object.entries({
    client_id: client.id,
    response_type: 'code',
    redirect_uri: redirectUri,
    scope: 'openid profile email',
    state: randomBytes(8).toString('hex'),
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }))
    authorize.searchParams.set(name, value);
  const redirect = await browser.fetch(authorize.href);
  const page = await browser.fetch(new URL(redirect.headers.get('location') ?? '', issuer).href);
  const html = await page.text();
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error(`no login form (${page.status})`);
  return new URL(action.replace(/&amp;/g, '&'), issuer).href;
}

async function postLogin(browser: Browser, action: string, password: string): Promise<Response> {
  return browser.fetch(action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: user.email, password }),
  });
}

/** Follows the provider's redirects after the form until the client's redirect URI. */
async function codeOf(browser: Browser, response: Response): Promise<string> {
  let current = response;
  for (let hop = 0; hop < 5; hop++) {
    const location = new URL(current.headers.get('location') ?? '', issuer);
    if (location.href.startsWith(redirectUri)) return location.searchParams.get('code') ?? '';
    current = await browser.fetch(location.href);
  }
  throw new Error('no code');
}

const timings: Record<string, number[]> = {
  'client_credentials token': [],
  'code flow, end to end': [],
  'login form post, right password': [],
  'login form post, wrong password': [],
  'refresh_token grant': [],
};
const time = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
  const started = performance.now();
  const result = await work();
  timings[name]?.push(performance.now() - started);
  return result;
};

try {
  let refreshToken = '';
  for (let round = 0; round < samples; round++) {
    await time('client_credentials token', () => tokenRequest({ grant_type: 'client_credentials' }));

    const browser = new Browser();
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const started = performance.now();
    const action = await openLoginPage(browser, challenge);
    const failed = await time('login form post, wrong password', () =>
      postLogin(browser, action, 'wrong-password-1'),
    );
    await failed.text();
    const posted = await time('login form post, right password', () =>
      postLogin(browser, action, user.password),
    );
    const code = await codeOf(browser, posted);
    const tokens = await tokenRequest({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
    });
    // The wrong-password post is part of this round, not of a real sign-in: leave it out.
    timings['code flow, end to end']?.push(
      performance.now() - started - (timings['login form post, wrong password']?.at(-1) ?? 0),
    );
    refreshToken = tokens.refresh_token ?? refreshToken;
    const refreshed = await time('refresh_token grant', () =>
      tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshToken }),
    );
    refreshToken = refreshed.refresh_token ?? refreshToken;
  }

  console.log(`Node ${process.version}, ${samples} rounds, one request at a time\n`);
  console.log(`${'operation'.padEnd(36)}${'p50 ms'.padStart(10)}${'p95 ms'.padStart(10)}`);
  for (const [name, values] of Object.entries(timings)) {
    console.log(
      `${name.padEnd(36)}${percentile(values, 0.5).toFixed(1).padStart(10)}${percentile(values, 0.95).toFixed(1).padStart(10)}`,
    );
  }
  console.log('\nPasswords are scrypt hashes (N=16384, r=8, p=1): every form post pays one verification.');
} finally {
  await service.stop();
  await rm(dataDir, { recursive: true, force: true });
}
