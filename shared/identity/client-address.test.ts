import { describe, expect, it } from 'vitest';
import { clientAddress, trustedProxyHops } from './client-address.ts';

const request = (remoteAddress: string | undefined, forwardedFor?: string | string[]) => ({
  headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
  socket: { remoteAddress },
});

describe('client address of a sign-in', () => {
  it.each([
    {
      title: 'the socket peer without trusted proxies',
      hops: 0,
      peer: '192.0.2.1',
      xff: '203.0.113.9',
      expected: '192.0.2.1',
    },
    {
      title: 'the last entry behind one proxy',
      hops: 1,
      peer: '10.0.0.2',
      xff: '203.0.113.9, 198.51.100.7',
      expected: '198.51.100.7',
    },
    {
      title: 'the second from the right behind CloudFront and an ALB',
      hops: 2,
      peer: '10.0.0.2',
      xff: 'forged, 203.0.113.9, 198.51.100.7',
      expected: '203.0.113.9',
    },
    {
      title: 'repeated headers as one list',
      hops: 2,
      peer: '10.0.0.2',
      xff: ['203.0.113.9', '198.51.100.7'],
      expected: '203.0.113.9',
    },
    {
      title: 'the socket peer when the header has fewer entries than hops',
      hops: 2,
      peer: '10.0.0.2',
      xff: '203.0.113.9',
      expected: '10.0.0.2',
    },
    {
      title: 'the socket peer when the header is missing',
      hops: 1,
      peer: '10.0.0.2',
      xff: undefined,
      expected: '10.0.0.2',
    },
    {
      title: 'the socket peer when the trusted entry is no address',
      hops: 1,
      peer: '10.0.0.2',
      xff: '203.0.113.9, not-an-ip',
      expected: '10.0.0.2',
    },
    {
      title: 'IPv4-mapped IPv6 as IPv4',
      hops: 0,
      peer: '::ffff:127.0.0.1',
      xff: undefined,
      expected: '127.0.0.1',
    },
    {
      title: 'IPv6 in lower case without brackets and port',
      hops: 1,
      peer: '10.0.0.2',
      xff: '[2001:DB8::1]:443',
      expected: '2001:db8::1',
    },
    {
      title: 'IPv4 without port',
      hops: 1,
      peer: '10.0.0.2',
      xff: '203.0.113.9:5060',
      expected: '203.0.113.9',
    },
  ])('takes $title', ({ hops, peer, xff, expected }) => {
    expect(clientAddress(request(peer, xff), hops)).toBe(expected);
  });

  it('answers "unknown" when not even the socket has an address', () => {
    expect(clientAddress(request(undefined), 0)).toBe('unknown');
  });
});

describe('FSM_TRUSTED_PROXY_HOPS', () => {
  it.each([
    [undefined, 0],
    ['', 0],
    ['2', 2],
  ])('reads %j as %i', (value, expected) => {
    expect(trustedProxyHops(value)).toBe(expected);
  });

  it.each(['-1', '1.5', 'two', '11'])('refuses %j at start', (value) => {
    expect(() => trustedProxyHops(value)).toThrow(/FSM_TRUSTED_PROXY_HOPS/);
  });
});
