/**
 * Where webhooks may go (SPEC.md, Events → Webhooks → Destination rules): an absolute https URL
 * without credentials or fragment whose host resolves only to public addresses. This is the
 * SSRF guard of outbound webhooks: without it a workspace could make the service POST to
 * 169.254.169.254, to the VPC, or to itself.
 *
 * Two entry points, because the same name is judged twice and the rules differ:
 * - on save (`destinationProblemOnSave`): a bad URL or a refused address is a 422, but a name
 *   that does not resolve now is accepted; users register endpoints before their DNS exists,
 *   and CI has no external DNS at all. Nothing is lost: the name is checked again anyway.
 * - before every attempt (`resolveDestination`): the name is resolved again, and the checked
 *   addresses are returned so http-attempt.ts connects to exactly them. Checking a name and then
 *   letting the HTTP client resolve it once more would let a second, different answer (DNS
 *   rebinding) reach an internal address between the check and the connect.
 *
 * Resolution goes through the system resolver, or through `dnsServers` (FSM_WEBHOOK_DNS_SERVERS)
 * so tests can decide the answers; each resolution is bounded, a slow DNS must not hold a worker.
 */
import { promises as dnsPromises } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export interface DestinationOptions {
  /** FSM_WEBHOOK_ALLOW_LOCAL=true (development only): plain http, and loopback addresses. */
  allowLocal: boolean;
  /** FSM_WEBHOOK_DNS_SERVERS (`host:port`): resolve A and AAAA there instead of the system resolver. */
  dnsServers?: readonly string[];
  /** Bound of one resolution; `resolveTimeoutMs` unless a test wants to wait less. */
  resolveTimeoutMs?: number;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** A destination checked just now: connections may go to `addresses` and nowhere else. */
export interface PinnedDestination {
  url: URL;
  /** The first checked address, the one a connection tries first. */
  address: string;
  family: 4 | 6;
  /** Every address the host resolved to, all of them checked (so any may be connected to). */
  addresses: readonly ResolvedAddress[];
}

export type DestinationResolution =
  | { ok: true; destination: PinnedDestination }
  /** `dns: ENOTFOUND`, `dns: ETIMEOUT`, `destination refused: resolves to a private address (…)`. */
  | { ok: false; error: string; failure: 'DESTINATION_REFUSED' | 'DNS_FAILED' };

/**
 * Appended where local delivery would have admitted the destination, so a developer whose
 * http://127.0.0.1 receiver is refused learns the switch (and a production user that it is none of theirs).
 */
export const localDeliveryHint =
  'only where local delivery is on (FSM_WEBHOOK_ALLOW_LOCAL=true, development only)';

/** Bound of one resolution (A and AAAA together). */
export const resolveTimeoutMs = 2_000;

/**
 * The problem of an endpoint URL as written, before any DNS: a short sentence for a 422 on
 * `#/endpoint_url`, or undefined. IP-literal hosts are judged here too, since they need no DNS.
 */
export function urlProblem(rawUrl: string, allowLocal: boolean): string | undefined {
  const parsed = parseDestinationUrl(rawUrl, allowLocal);
  if ('problem' in parsed) return parsed.problem;
  const host = hostOf(parsed.url);
  return isIP(host) ? addressProblem(host, allowLocal) : undefined;
}

/** On save: undefined when the URL may be stored, otherwise why not (for `#/endpoint_url`). */
export async function destinationProblemOnSave(
  rawUrl: string,
  opts: DestinationOptions,
): Promise<string | undefined> {
  const parsed = parseDestinationUrl(rawUrl, opts.allowLocal);
  if ('problem' in parsed) return parsed.problem;
  const resolution = await resolveHost(hostOf(parsed.url), opts);
  // No answer (NXDOMAIN, timeout, no DNS reachable) is accepted: see the header.
  if (!resolution.ok) return undefined;
  return firstAddressProblem(resolution.addresses, opts.allowLocal);
}

/** Before every attempt: the destination pinned to addresses checked now, or why not. */
export async function resolveDestination(
  rawUrl: string,
  opts: DestinationOptions,
): Promise<DestinationResolution> {
  const parsed = parseDestinationUrl(rawUrl, opts.allowLocal);
  const refused = (problem: string) =>
    ({ ok: false, error: `destination refused: ${problem}`, failure: 'DESTINATION_REFUSED' }) as const;
  if ('problem' in parsed) return refused(parsed.problem);
  const resolution = await resolveHost(hostOf(parsed.url), opts);
  if (!resolution.ok) return { ...resolution, failure: 'DNS_FAILED' };
  const problem = firstAddressProblem(resolution.addresses, opts.allowLocal);
  if (problem) return refused(problem);
  const [first] = resolution.addresses as [ResolvedAddress, ...ResolvedAddress[]];
  return {
    ok: true,
    destination: {
      url: parsed.url,
      address: first.address,
      family: first.family,
      addresses: resolution.addresses,
    },
  };
}

/**
 * Why an address may not receive webhooks, or undefined when it may. Only ipaddr.js's `unicast`
 * range is public; an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) is judged by its IPv4 address,
 * since that is where a connection to it goes. `allowLocal` admits loopback, nothing else.
 */
export function addressProblem(address: string, allowLocal: boolean): string | undefined {
  // Only canonical spellings: ipaddr.js would also read `127.1` or octal `010.0.0.1`, and a
  // resolver or the URL parser never hands those over, so anything else is a caller's mistake.
  if (!isIP(address)) return `is not an IP address (${address})`;
  let ip = ipaddr.parse(address);
  if (ip instanceof ipaddr.IPv6 && ip.isIPv4MappedAddress()) ip = ip.toIPv4Address();
  let range: string = ip.range();
  // ipaddr.js calls every IPv6 address outside its special ranges unicast, but only 2000::/3 is
  // allocated as global unicast; the rest (IPv4-compatible ::a.b.c.d among it) is reserved.
  if (range === 'unicast' && ip instanceof ipaddr.IPv6 && !ip.match(globalUnicastV6)) range = 'reserved';
  if (range === 'unicast') return undefined;
  if (range === 'loopback' && allowLocal) return undefined;
  const refusal = `resolves to ${rangeDescriptions[range] ?? 'a non-public address'} (${address})`;
  return range === 'loopback' ? `${refusal}; loopback receivers ${localDeliveryHint}` : refusal;
}

const globalUnicastV6 = ipaddr.IPv6.parseCIDR('2000::/3');

/** ipaddr.js range names, as a refusal reads them; unlisted ranges are "a non-public address". */
const rangeDescriptions: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private address',
  linkLocal: 'a link-local address',
  carrierGradeNat: 'a carrier-grade NAT address',
  uniqueLocal: 'a unique-local address',
  unspecified: 'an unspecified address',
  multicast: 'a multicast address',
  broadcast: 'a broadcast address',
  reserved: 'a reserved address',
  benchmarking: 'a benchmarking address',
  rfc6052: 'a NAT64 address',
  rfc6145: 'an IPv4-translated address',
  '6to4': 'a 6to4 address',
  teredo: 'a Teredo address',
};

function firstAddressProblem(addresses: readonly ResolvedAddress[], allowLocal: boolean): string | undefined {
  // One refused address refuses the name: which one a connection would pick is not ours to know.
  for (const { address } of addresses) {
    const problem = addressProblem(address, allowLocal);
    if (problem) return problem;
  }
  return undefined;
}

function parseDestinationUrl(rawUrl: string, allowLocal: boolean): { url: URL } | { problem: string } {
  // The WHATWG parser is what the HTTP client will follow, and it normalizes the odd IPv4
  // spellings (`2130706433`, `127.1`, `0x7f.0.0.1`) to dotted form: judge its result, not the text.
  const url = URL.parse(rawUrl);
  if (!url) return { problem: 'must be an absolute URL' };
  if (url.protocol !== 'https:' && !(allowLocal && url.protocol === 'http:')) {
    if (allowLocal) return { problem: 'must use https or http' };
    return {
      problem:
        url.protocol === 'http:' ? `must use https; plain http ${localDeliveryHint}` : 'must use https',
    };
  }
  if (url.username || url.password) return { problem: 'must not contain credentials' };
  // An empty fragment (`…/#`) leaves `hash` empty but still shows in `href`, where a `#` can
  // only start the fragment.
  if (url.href.includes('#')) return { problem: 'must not contain a fragment' };
  return { url };
}

/** The host as resolvers and sockets take it: IPv6 literals without their brackets. */
export function hostOf(url: URL): string {
  const { hostname } = url;
  return hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
}

type HostResolution = { ok: true; addresses: ResolvedAddress[] } | { ok: false; error: string };

async function resolveHost(host: string, opts: DestinationOptions): Promise<HostResolution> {
  const literal = isIP(host);
  if (literal === 4 || literal === 6) return { ok: true, addresses: [{ address: host, family: literal }] };
  const timeoutMs = opts.resolveTimeoutMs ?? resolveTimeoutMs;
  // RFC 6761: localhost names are the machine itself and never go to DNS servers, so they are
  // looked up locally (hosts file) even when `dnsServers` is set, and then judged as loopback.
  const servers = opts.dnsServers?.length && !isLocalhostName(host) ? opts.dnsServers : undefined;
  try {
    const lookup = servers ? lookupAt(servers, host, timeoutMs) : lookupBySystem(host);
    const addresses = await withTimeout(lookup, timeoutMs);
    if (addresses.length === 0) return { ok: false, error: 'dns: ENODATA' };
    return { ok: true, addresses };
  } catch (error) {
    return { ok: false, error: `dns: ${(error as NodeJS.ErrnoException).code ?? 'error'}` };
  }
}

function isLocalhostName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

async function lookupBySystem(host: string): Promise<ResolvedAddress[]> {
  // getaddrinfo runs in libuv's thread pool; the timeout below stops the wait, not the lookup.
  const found = await dnsPromises.lookup(host, { all: true, order: 'verbatim' });
  return found.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
}

/** Both families at the given servers; a family without records is fine when the other has some. */
async function lookupAt(
  servers: readonly string[],
  host: string,
  timeoutMs: number,
): Promise<ResolvedAddress[]> {
  const resolver = resolverFor(servers, timeoutMs);
  const [v4, v6] = await Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]);
  const addresses: ResolvedAddress[] = [
    ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 as const })) : []),
    ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 as const })) : []),
  ];
  for (const result of [v4, v6]) {
    if (result.status === 'rejected' && !isNoRecords(result.reason)) throw result.reason;
  }
  if (addresses.length === 0 && v4.status === 'rejected') throw v4.reason;
  if (addresses.length === 0 && v6.status === 'rejected') throw v6.reason;
  return addresses;
}

function isNoRecords(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENODATA' || code === 'ENOTFOUND';
}

/** One resolver per server list: c-ares keeps no cache, so reusing it never serves old answers. */
const resolvers = new Map<string, dnsPromises.Resolver>();

function resolverFor(servers: readonly string[], timeoutMs: number): dnsPromises.Resolver {
  const key = `${timeoutMs}|${servers.join(',')}`;
  let resolver = resolvers.get(key);
  if (!resolver) {
    // One try per server within the bound; a shared resolver is never cancel()ed (that would
    // cancel other deliveries' queries too), so withTimeout below is what ends a slow one.
    resolver = new dnsPromises.Resolver({ timeout: timeoutMs, tries: 1 });
    resolver.setServers([...servers]);
    resolvers.set(key, resolver);
  }
  return resolver;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(Object.assign(new Error('DNS timeout'), { code: 'ETIMEOUT' })), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
