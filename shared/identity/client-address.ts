/**
 * The address a sign-in comes from, for the per-address throttle of failed sign-ins.
 *
 * Without proxies it is the socket's peer. Behind proxies (FSM_TRUSTED_PROXY_HOPS = n) it is
 * the n-th entry from the right of X-Forwarded-For: each trusted proxy appends the address it
 * received the request from, so the n-th from the right is what the outermost trusted proxy
 * saw, and whatever a client wrote into the header itself stays further left, unused.
 * CloudFront in front of an ALB is n = 2 (CloudFront appends the viewer, the ALB appends the
 * CloudFront edge). A header with fewer entries than n did not pass all proxies (or was not
 * written by them): the socket's peer is used then, never a value the client chose.
 */
import { isIP } from 'node:net';

export interface AddressSource {
  headers: Record<string, string | string[] | undefined>;
  socket: { remoteAddress?: string | undefined };
}

/** FSM_TRUSTED_PROXY_HOPS: a whole number of proxies, 0 (the default) for none. */
export function trustedProxyHops(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return 0;
  const hops = Number(value);
  if (!Number.isInteger(hops) || hops < 0 || hops > 10) {
    throw new Error(`FSM_TRUSTED_PROXY_HOPS must be a whole number from 0 to 10, not "${value}"`);
  }
  return hops;
}

export function clientAddress(req: AddressSource, trustedHops: number): string {
  const peer = normalize(req.socket.remoteAddress ?? '') ?? 'unknown';
  if (trustedHops <= 0) return peer;
  const header = req.headers['x-forwarded-for'];
  // Repeated headers count as one list, in order (RFC 9110 §5.3).
  const joined = Array.isArray(header) ? header.join(',') : (header ?? '');
  const entries = joined
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length < trustedHops) return peer;
  return normalize(entries[entries.length - trustedHops] ?? '') ?? peer;
}

/** A bare IP address (no port, no brackets, IPv4-mapped IPv6 as IPv4), or undefined. */
function normalize(value: string): string | undefined {
  let address = value.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed) address = bracketed[1] ?? '';
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(address)) address = address.slice(0, address.lastIndexOf(':'));
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) address = mapped[1] ?? '';
  const version = isIP(address);
  if (version === 0) return undefined;
  return version === 6 ? address.toLowerCase() : address;
}
