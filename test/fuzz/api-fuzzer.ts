/**
 * A fuzz run against a running service, generated from its own OpenAPI document: every
 * operation of the route table, with plausible and hostile paths, queries, bodies, media types
 * and credentials, several requests in flight, creating, changing and deleting records while
 * others read them, plus sign-in requests to the identity provider. It checks what a client
 * relies on for every answer:
 *
 * - `hang`: no answer within the timeout
 * - `server-error`: a 5xx
 * - `not-a-problem`: a 4xx of the API that is not an RFC 9457 problem document of that status
 * - `undocumented-status`: a status the operation does not declare (nor a `default`)
 * - `response-schema`: a 2xx body the route's own response schema refuses
 * - `location`: a 201 without an absolute Location
 *
 * The fuzz client: this file and fuzz-workspace.ts are what test/integration/fuzz.test.ts and
 * bench/fuzz.bench.ts use; json-schema-values.ts is its own.
 */
import type * as z from 'zod';
import type { RouteSpec } from '../../shared/http/route-spec.ts';
import { routes } from '../../shared/routes/route-table.ts';
import {
  deeplyNested,
  hostileValue,
  plausibleValue,
  Random,
  type Schema,
  type ValueContext,
} from './json-schema-values.ts';

export interface FuzzTarget {
  baseUrl: string;
  /** The served OpenAPI document. */
  document: {
    paths: Record<string, Record<string, Schema>>;
    components: { schemas: Record<string, Schema> };
  };
  tokens: {
    /** A workspace token with wide grants (admin role). */
    workspace: string;
    /** A workspace token with few grants (technician role). */
    limited: string;
    /** An admin-plane token. */
    admin: string;
  };
  /** A client of the workspace, for sign-in requests. */
  client: { realm: string; clientId: string; clientSecret: string };
  /** A client of the workspace that may run the authorization-code flow, for login-form posts. */
  codeClient: { clientId: string; redirectUri: string };
}

export interface FuzzOptions {
  seed: number;
  requests: number;
  concurrency: number;
  timeoutMs: number;
  /** Called every `every` requests with the count so far (progress on long runs). */
  progress?: { every: number; report: (sent: number, findings: number) => void };
}

export interface Finding {
  kind: 'hang' | 'server-error' | 'not-a-problem' | 'undocumented-status' | 'response-schema' | 'location';
  operation: string;
  request: string;
  status?: number;
  detail: string;
}

export interface FuzzReport {
  seed: number;
  sent: number;
  elapsedMs: number;
  findings: Finding[];
  /** operationId → status → count. */
  statuses: Map<string, Map<number, number>>;
  latencyMs: { p50: number; p95: number; max: number };
}

interface Operation {
  operationId: string;
  method: string;
  path: string;
  spec: Schema;
  route?: RouteSpec;
}

interface PlannedRequest {
  /** Set for a sign-in through the login form: an authorization request, then the form post. */
  login?: { username: string; password: string };
  operation: string;
  method: string;
  path: string;
  template: string;
  /** Send a chunked body of this many bytes instead of `body` (no Content-Length up front). */
  streamBytes?: number;
  headers: Record<string, string>;
  body?: string;
  /** Whether the answer is the API's (problem documents) or the identity provider's (OAuth JSON). */
  surface: 'api' | 'identity';
}

const junkBodies = [
  '{',
  '{"a":',
  '[]',
  'null',
  '"text"',
  '42',
  '{"a":1}{"b":2}',
  '\u0000',
  deeplyNested(5000),
];

export async function runFuzz(target: FuzzTarget, options: FuzzOptions): Promise<FuzzReport> {
  const random = new Random(options.seed);
  const operations = operationsOf(target.document);
  const pools = new Map<string, string[]>();
  const resolve = (schema: Schema): Schema => {
    let current = schema ?? {};
    for (let hops = 0; typeof current.$ref === 'string' && hops < 10; hops++) {
      current = target.document.components.schemas[current.$ref.split('/').pop() ?? ''] ?? {};
    }
    return current;
  };
  const knownId = (name: string): string | undefined => {
    const base = name.replace(/_ids?$/, '');
    const key = [...pools.keys()].find((path) => path.endsWith(`/${base}s`) || path.endsWith(`/${base}`));
    const ids = key ? pools.get(key) : undefined;
    return ids?.length && random.chance(0.8) ? random.pick(ids) : undefined;
  };
  const values: ValueContext = { random, resolve, knownId };

  const findings: Finding[] = [];
  const statuses = new Map<string, Map<number, number>>();
  const latencies: number[] = [];
  let planned = 0;
  const started = Date.now();

  const emails: string[] = [];
  // Operations are dealt in rounds, each a fresh shuffle of all of them: every operation is tried
  // once per round, however the workers interleave. Picking at random left one of about 170
  // operations untried in some runs (eight in flight make the draws differ from run to run).
  let deck: Operation[] = [];
  const nextOperation = (): Operation => {
    if (deck.length === 0) deck = shuffled(operations, random);
    return deck.pop() as Operation;
  };
  const plan = (): PlannedRequest =>
    random.chance(0.08)
      ? identityRequest(target, random, emails)
      : apiRequest(nextOperation(), target, random, values, pools);

  const worker = async () => {
    while (planned < options.requests) {
      planned++;
      if (options.progress && planned % options.progress.every === 0) {
        options.progress.report(planned, findings.length);
      }
      const request = plan();
      const t0 = Date.now();
      let response: Response;
      let text: string;
      try {
        const signal = AbortSignal.timeout(options.timeoutMs);
        response = request.login
          ? await loginAttempt(target, request, signal)
          : await fetch(`${target.baseUrl}${request.path}`, {
              method: request.method,
              headers: request.headers,
              ...(request.streamBytes
                ? { body: streamOf(request.streamBytes), duplex: 'half' }
                : request.body === undefined
                  ? {}
                  : { body: request.body }),
              redirect: 'manual',
              signal,
            } as RequestInit);
        text = await bodyOf(response);
      } catch (error) {
        findings.push({
          kind: 'hang',
          operation: request.operation,
          request: describe(request),
          detail: `no answer within ${options.timeoutMs} ms (${(error as Error).name})`,
        });
        continue;
      }
      latencies.push(Date.now() - t0);
      const byStatus = statuses.get(request.operation) ?? new Map<number, number>();
      byStatus.set(response.status, (byStatus.get(response.status) ?? 0) + 1);
      statuses.set(request.operation, byStatus);
      const operation = operations.find((op) => op.operationId === request.operation);
      findings.push(...check(request, response, text, operation));
      if (operation) learn(operation, request, response, text, pools);
      const email =
        response.status === 201 ? (parseJson(text) as { email?: unknown } | undefined)?.email : undefined;
      if (typeof email === 'string') emails.push(email);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));

  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return {
    seed: options.seed,
    sent: planned,
    elapsedMs: Date.now() - started,
    findings,
    statuses,
    latencyMs: { p50: at(0.5), p95: at(0.95), max: latencies.at(-1) ?? 0 },
  };
}

function shuffled<T>(items: readonly T[], random: Random): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = random.int(0, i);
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

function operationsOf(document: FuzzTarget['document']): Operation[] {
  const byId = new Map((routes as readonly RouteSpec[]).map((route) => [route.operationId, route]));
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, spec]) => ({
        operationId: String(spec.operationId),
        method: method.toUpperCase(),
        path,
        spec,
        route: byId.get(String(spec.operationId)),
      })),
  );
}

function apiRequest(
  operation: Operation,
  target: FuzzTarget,
  random: Random,
  values: ValueContext,
  pools: Map<string, string[]>,
): PlannedRequest {
  const headers: Record<string, string> = {};
  const security = JSON.stringify(operation.spec.security ?? []);
  const roll = random.next();
  if (security.includes('adminBearer')) {
    if (roll < 0.85) headers.authorization = `Bearer ${target.tokens.admin}`;
    else if (roll < 0.92) headers.authorization = `Bearer ${target.tokens.workspace}`;
  } else if (security.includes('bearer')) {
    if (roll < 0.8) headers.authorization = `Bearer ${target.tokens.workspace}`;
    else if (roll < 0.88) headers.authorization = `Bearer ${target.tokens.limited}`;
    else if (roll < 0.94)
      headers.authorization = `Bearer ${random.pick(['x.y.z', 'garbage', `${target.tokens.workspace}x`])}`;
  }

  const parameters: Schema[] = operation.spec.parameters ?? [];
  let path = operation.path;
  for (const parameter of parameters.filter((p) => p.in === 'path')) {
    const pool = pools.get(operation.path.slice(0, operation.path.indexOf(`/{${parameter.name}}`))) ?? [];
    const hostile = String(hostileValue(parameter.schema ?? {}, values));
    // An empty segment names another route (the collection), not a bad id of this one.
    const value =
      pool.length > 0 && random.chance(0.75)
        ? random.pick(pool)
        : random.chance(0.6) || hostile.trim() === ''
          ? random.uuid()
          : hostile;
    path = path.replace(`{${parameter.name}}`, encodeURIComponent(value.toWellFormed()));
  }
  const query = new URLSearchParams();
  for (const parameter of parameters.filter((p) => p.in === 'query')) {
    if (!parameter.required && !random.chance(0.4)) continue;
    const schema = values.resolve(parameter.schema ?? {});
    const repeat = schema.type === 'array' ? random.int(1, 3) : 1;
    for (let i = 0; i < repeat; i++) {
      const itemSchema = schema.type === 'array' ? (schema.items ?? {}) : schema;
      const value = random.chance(0.75)
        ? plausibleValue(itemSchema, values, parameter.name)
        : hostileValue(itemSchema, values);
      query.append(parameter.name, typeof value === 'string' ? value : JSON.stringify(value));
    }
  }
  if (random.chance(0.05))
    query.append(random.pick(['unknown', 'page', 'size', 'sort']), random.pick(['-1', 'x', '']));
  const search = query.toString();

  let body: string | undefined;
  let streamBytes: number | undefined;
  const content = operation.spec.requestBody?.content as Record<string, Schema> | undefined;
  if (content) {
    const [mediaType = 'application/json', media] = random.pick(Object.entries(content));
    const mediaRoll = random.next();
    if (mediaRoll < 0.9) headers['content-type'] = mediaType;
    else if (mediaRoll < 0.96)
      headers['content-type'] = random.pick([
        'text/plain',
        'application/xml',
        'application/json; charset=utf-16',
      ]);
    const bodyRoll = random.next();
    if (bodyRoll < 0.01) streamBytes = random.int(1, 3) * 1024 * 1024;
    else if (bodyRoll < 0.55) body = JSON.stringify(plausibleValue(media?.schema ?? {}, values));
    else if (bodyRoll < 0.87)
      body = JSON.stringify(
        mutated(plausibleValue(media?.schema ?? {}, values), media?.schema ?? {}, values),
      );
    else if (bodyRoll < 0.97) body = random.pick(junkBodies);
    else body = '';
  } else if (random.chance(0.03)) {
    headers['content-type'] = 'application/json';
    body = '{"unexpected":true}';
  }

  return {
    operation: operation.operationId,
    method: operation.method,
    path: search ? `${path}?${search}` : path,
    template: operation.path,
    headers,
    ...(body === undefined || operation.method === 'GET' ? {} : { body }),
    ...(streamBytes ? { streamBytes } : {}),
    surface: 'api',
  };
}

/** One property changed to a hostile value, a required one removed, or an unknown one added. */
function mutated(value: unknown, schema: Schema, values: ValueContext): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return hostileValue(schema, values);
  const object = { ...(value as Record<string, unknown>) };
  const resolved = values.resolve(schema);
  const properties = Object.keys(resolved.properties ?? {});
  const roll = values.random.next();
  if (properties.length === 0 || roll < 0.1) {
    object[values.random.pick(['unknown_field', '__proto__', 'constructor', 'id', 'lock_version'])] =
      hostileValue({}, values);
  } else if (roll < 0.25 && Array.isArray(resolved.required) && resolved.required.length > 0) {
    delete object[values.random.pick(resolved.required as string[])];
  } else {
    const key = values.random.pick(properties);
    object[key] = hostileValue(resolved.properties[key] ?? {}, values);
  }
  return object;
}

/**
 * A sign-in through the login form, as a browser does it: the authorization request (which
 * redirects to the login page and sets the interaction cookie), then the form post. Answers the
 * post's response, or the first one when it did not redirect to a login page.
 */
async function loginAttempt(
  target: FuzzTarget,
  request: PlannedRequest,
  signal: AbortSignal,
): Promise<Response> {
  const realm = `/realms/${target.client.realm}`;
  const authorize = new URL(`${target.baseUrl}${realm}/protocol/openid-connect/auth`);
  authorize.search = new URLSearchParams({
    client_id: target.codeClient.clientId,
    response_type: 'code',
    redirect_uri: target.codeClient.redirectUri,
    scope: 'openid profile email',
    state: 'fuzz-state',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
  }).toString();
  const first = await fetch(authorize, { redirect: 'manual', signal });
  const location = first.headers.get('location') ?? '';
  if (first.status !== 303 || !location.includes('/login/')) return first;
  await first.arrayBuffer();
  const cookie = first.headers
    .getSetCookie()
    .map((value) => value.split(';', 1)[0])
    .join('; ');
  return fetch(new URL(location, target.baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    body: new URLSearchParams(request.login ?? {}).toString(),
    redirect: 'manual',
    signal,
  });
}

function identityRequest(target: FuzzTarget, random: Random, emails: readonly string[]): PlannedRequest {
  if (random.chance(0.4)) {
    const username =
      emails.length > 0 && random.chance(0.7) ? random.pick(emails) : `${random.word()}@fuzz.test`;
    return {
      operation: 'identity.login',
      method: 'POST',
      path: `/realms/${target.client.realm}/login`,
      template: 'identity',
      headers: {},
      login: { username, password: random.pick(['wrong-password-1', '', 'x'.repeat(5000), random.word()]) },
      surface: 'identity',
    };
  }
  const realmPath = `/realms/${target.client.realm}`;
  const formHeaders = { 'content-type': 'application/x-www-form-urlencoded' };
  type Choice = Omit<PlannedRequest, 'surface' | 'template'>;
  const post = (operation: string, path: string, fields: Record<string, string>): Choice => ({
    operation,
    method: 'POST',
    path: `${realmPath}${path}`,
    headers: formHeaders,
    body: new URLSearchParams(fields).toString(),
  });
  const get = (operation: string, path: string, headers: Record<string, string> = {}): Choice => ({
    operation,
    method: 'GET',
    path: `${realmPath}${path}`,
    headers,
  });
  const token = '/protocol/openid-connect/token';
  const { clientId, clientSecret } = target.client;
  const choices: Array<() => Choice> = [
    () =>
      post('identity.token', token, {
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: clientSecret,
      }),
    () =>
      post('identity.token', token, {
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: random.word(),
      }),
    () =>
      post('identity.token', token, {
        grant_type: random.pick(['password', 'refresh_token', 'authorization_code', '', 'x'.repeat(5000)]),
        client_id: clientId,
        code: random.word(),
        refresh_token: random.word(),
      }),
    () => ({
      ...post('identity.token', token, {}),
      headers: { 'content-type': 'application/json' },
      body: '{"grant_type":"client_credentials"}',
    }),
    // A form larger than oidc-provider's own limit: refused part-way, the connection must stay usable.
    () =>
      post('identity.token', token, {
        grant_type: 'client_credentials',
        client_id: clientId,
        client_assertion: 'a'.repeat(200_000),
      }),
    () => get('identity.discovery', '/.well-known/openid-configuration'),
    () => get('identity.certs', '/protocol/openid-connect/certs'),
    () =>
      get('identity.userinfo', '/protocol/openid-connect/userinfo', {
        authorization: `Bearer ${random.pick([target.tokens.workspace, 'x.y.z'])}`,
      }),
    () =>
      post('identity.logout', '/protocol/openid-connect/logout', {
        client_id: clientId,
        client_secret: clientSecret,
        refresh_token: random.word(),
      }),
  ];
  return { ...random.pick(choices)(), template: 'identity', surface: 'identity' };
}

/**
 * The answer's body. An event stream never ends by itself: its first message (or a second of
 * it) is its answer, then the connection is closed as a client would.
 */
async function bodyOf(response: Response): Promise<string> {
  if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) return response.text();
  const reader = response.body?.getReader();
  let text = '';
  const deadline = Date.now() + 1000;
  while (reader && !text.includes('\n\n') && Date.now() < deadline) {
    const chunk = await Promise.race([
      reader.read(),
      new Promise<undefined>((resolve) =>
        setTimeout(() => resolve(undefined), Math.max(0, deadline - Date.now())),
      ),
    ]);
    if (!chunk || chunk.done) break;
    text += Buffer.from(chunk.value).toString();
  }
  await reader?.cancel();
  return text;
}

function check(
  request: PlannedRequest,
  response: Response,
  text: string,
  operation: Operation | undefined,
): Finding[] {
  const findings: Finding[] = [];
  const status = response.status;
  const found = (kind: Finding['kind'], detail: string) =>
    findings.push({ kind, operation: request.operation, request: describe(request), status, detail });
  if (status >= 500) found('server-error', text.slice(0, 300));
  if (request.surface === 'identity') return findings;

  const contentType = response.headers.get('content-type') ?? '';
  if (status >= 400) {
    const problem = parseJson(text) as Record<string, unknown> | undefined;
    if (
      contentType !== 'application/problem+json' ||
      !problem ||
      problem.status !== status ||
      typeof problem.type !== 'string' ||
      typeof problem.title !== 'string'
    ) {
      found('not-a-problem', `${contentType}: ${text.slice(0, 200)}`);
    }
  }
  if (!operation) return findings;
  const declared = operation.spec.responses ?? {};
  if (!(String(status) in declared) && !('default' in declared)) {
    found('undocumented-status', `declared: ${Object.keys(declared).join(', ')}`);
  }
  if (status === 201 && !/^https?:\/\//.test(response.headers.get('location') ?? '')) {
    found('location', `Location: ${response.headers.get('location')}`);
  }
  const schema = operation.route?.success.schema as z.ZodType | undefined;
  if (
    status >= 200 &&
    status < 300 &&
    status !== 204 &&
    schema &&
    contentType.startsWith('application/json')
  ) {
    const parsed = schema.safeParse(parseJson(text));
    if (!parsed.success) found('response-schema', JSON.stringify(parsed.error.issues.slice(0, 3)));
  }
  return findings;
}

/** Ids of records that exist now, by the path template of their collection. */
function learn(
  operation: Operation,
  request: PlannedRequest,
  response: Response,
  text: string,
  pools: Map<string, string[]>,
): void {
  const body = parseJson(text) as Record<string, unknown> | undefined;
  const add = (key: string, id: unknown) => {
    if (typeof id !== 'string') return;
    const pool = pools.get(key) ?? [];
    if (!pool.includes(id)) pool.push(id);
    if (pool.length > 200) pool.shift();
    pools.set(key, pool);
  };
  if (response.status === 201 && body) add(operation.path, body.id ?? body.client_id);
  // The admin plane's lists show every workspace, the test suite's own among them: acting on
  // those would disturb other tests, so only workspaces this run created are used.
  if (
    response.status === 200 &&
    body &&
    Array.isArray(body.items) &&
    !operation.path.startsWith('/admin-v1')
  ) {
    for (const item of body.items.slice(0, 20)) add(operation.path, (item as Record<string, unknown>).id);
  }
  if (response.status === 204 && request.method === 'DELETE') {
    const collection = operation.path.slice(0, operation.path.lastIndexOf('/'));
    const id = decodeURIComponent(request.path.split('?')[0]?.split('/').pop() ?? '');
    pools.set(
      collection,
      (pools.get(collection) ?? []).filter((known) => known !== id),
    );
  }
}

/** A body that arrives in 64 KiB chunks, as an upload does. */
function streamOf(bytes: number): ReadableStream<Uint8Array> {
  const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= bytes) controller.close();
      else {
        controller.enqueue(chunk);
        sent += chunk.length;
      }
    },
  });
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

function describe(request: PlannedRequest): string {
  const body = request.body === undefined ? '' : ` ${request.body.slice(0, 160)}`;
  return `${request.method} ${request.path.slice(0, 200)}${body}`;
}

/** A readable summary of a report, for benchmarks and failing tests. */
export function summarize(report: FuzzReport): string {
  const lines = [
    `seed ${report.seed}: ${report.sent} requests in ${(report.elapsedMs / 1000).toFixed(1)} s ` +
      `(${Math.round((report.sent * 1000) / report.elapsedMs)}/s), latency p50 ${report.latencyMs.p50} ms, ` +
      `p95 ${report.latencyMs.p95} ms, max ${report.latencyMs.max} ms; ${report.findings.length} findings`,
  ];
  const byKind = new Map<string, Finding[]>();
  for (const finding of report.findings)
    byKind.set(finding.kind, [...(byKind.get(finding.kind) ?? []), finding]);
  for (const [kind, list] of byKind) {
    lines.push(`  ${kind}: ${list.length}`);
    for (const finding of list.slice(0, 8)) {
      lines.push(
        `    ${finding.operation} → ${finding.status ?? '-'}: ${finding.request}\n      ${finding.detail}`,
      );
    }
  }
  return lines.join('\n');
}
