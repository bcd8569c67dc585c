/**
 * Which webhook destinations are accepted on save and which an attempt may connect to
 * (SPEC.md, Webhooks → Destination rules). Names are resolved through a test DNS server whose
 * answers each test decides, so nothing here depends on real DNS.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type DnsAnswerFn, startDnsServer, type TestDnsServer } from '../../test/support/dns-server.ts';
import {
  addressProblem,
  type DestinationOptions,
  destinationProblemOnSave,
  localDeliveryHint,
  resolveDestination,
  urlProblem,
} from './destination.ts';

describe('Function: addressProblem', () => {
  const refused: Array<[string, string]> = [
    // IPv4
    ['0.0.0.0', 'an unspecified'],
    ['0.1.2.3', 'an unspecified'],
    ['127.0.0.1', 'a loopback'],
    ['127.255.255.254', 'a loopback'],
    ['10.0.0.5', 'a private'],
    ['172.16.0.1', 'a private'],
    ['172.31.255.255', 'a private'],
    ['192.168.1.1', 'a private'],
    ['169.254.169.254', 'a link-local'],
    ['100.64.0.1', 'a carrier-grade NAT'],
    ['100.127.255.254', 'a carrier-grade NAT'],
    ['224.0.0.1', 'a multicast'],
    ['239.255.255.250', 'a multicast'],
    ['255.255.255.255', 'a broadcast'],
    ['240.0.0.1', 'a reserved'],
    ['192.0.0.8', 'a reserved'],
    ['192.0.2.1', 'a reserved'],
    ['198.51.100.7', 'a reserved'],
    ['203.0.113.9', 'a reserved'],
    ['198.18.0.1', 'a reserved'],
    ['192.88.99.1', 'a reserved'],
    ['192.31.196.1', 'a non-public'],
    // IPv6
    ['::', 'an unspecified'],
    ['::1', 'a loopback'],
    ['fe80::1', 'a link-local'],
    ['fe80::1%eth0', 'a link-local'],
    ['fc00::1', 'a unique-local'],
    ['fd12:3456:789a::1', 'a unique-local'],
    ['ff02::1', 'a multicast'],
    ['fec0::1', 'a non-public'],
    ['100::1', 'a non-public'],
    ['2001:db8::1', 'a reserved'],
    ['2001:2::1', 'a benchmarking'],
    ['3fff::1', 'a reserved'],
    ['::7f00:1', 'a reserved'],
    ['4000::1', 'a reserved'],
    // IPv4-mapped IPv6 is judged by its IPv4 address.
    ['::ffff:127.0.0.1', 'a loopback'],
    ['::ffff:7f00:1', 'a loopback'],
    ['::ffff:10.0.0.5', 'a private'],
    ['::ffff:169.254.169.254', 'a link-local'],
    ['::ffff:0.0.0.0', 'an unspecified'],
    // Translation and tunnelling prefixes lead somewhere else than they say, public or not.
    ['64:ff9b::7f00:1', 'a NAT64'],
    ['64:ff9b::5db8:d822', 'a NAT64'],
    ['64:ff9b:1::1', 'a NAT64'],
    ['::ffff:0:7f00:1', 'an IPv4-translated'],
    ['2002:7f00:1::1', 'a 6to4'],
    ['2001:0:4136:e378::1', 'a Teredo'],
  ];

  it.each(refused)('refuses %s as %s address', (address, kind) => {
    // Where local delivery would admit it (loopback), the refusal names the switch.
    const hint = kind === 'a loopback' ? `; loopback receivers ${localDeliveryHint}` : '';
    expect(addressProblem(address, false)).toBe(`resolves to ${kind} address (${address})${hint}`);
  });

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '1.1.1.1',
    '2606:4700::1111',
    '2a00:1450:4001:82b::200e',
    '::ffff:93.184.216.34',
  ])('accepts the public address %s', (address) => {
    expect(addressProblem(address, false)).toBeUndefined();
  });

  it.each(['127.0.0.1', '127.0.0.2', '::1', '::ffff:127.0.0.1'])(
    'accepts the loopback address %s when local delivery is allowed',
    (address) => {
      expect(addressProblem(address, true)).toBeUndefined();
    },
  );

  it.each(['10.0.0.5', '192.168.1.1', '169.254.169.254', '0.0.0.0', 'fd00::1', '::ffff:10.0.0.5'])(
    'still refuses %s when local delivery is allowed',
    (address) => {
      expect(addressProblem(address, true)).toMatch(/^resolves to /);
    },
  );

  it('refuses text that is not an address rather than guessing what it means', () => {
    expect(addressProblem('127.1', false)).toBe('is not an IP address (127.1)');
    expect(addressProblem('example.com', true)).toBe('is not an IP address (example.com)');
  });
});

describe('Function: urlProblem', () => {
  it.each([
    ['http://93.184.216.34/hook', `must use https; plain http ${localDeliveryHint}`],
    ['ftp://93.184.216.34/hook', 'must use https'],
    ['https://user:secret@93.184.216.34/hook', 'must not contain credentials'],
    ['https://user@93.184.216.34/hook', 'must not contain credentials'],
    ['https://93.184.216.34/hook#part', 'must not contain a fragment'],
    ['https://93.184.216.34/hook#', 'must not contain a fragment'],
    ['/hook', 'must be an absolute URL'],
    ['not a url', 'must be an absolute URL'],
  ])('refuses %s: %s', (url, problem) => {
    expect(urlProblem(url, false)).toBe(problem);
  });

  it('never repeats the credentials it refuses', () => {
    expect(urlProblem('https://user:hunter2@93.184.216.34/', false)).not.toContain('hunter2');
  });

  it('accepts plain http only when local delivery is allowed', () => {
    expect(urlProblem('http://93.184.216.34/hook', true)).toBeUndefined();
    expect(urlProblem('ftp://93.184.216.34/hook', true)).toBe('must use https or http');
  });

  it.each([
    ['https://127.0.0.1/hook', '127.0.0.1'],
    ['https://2130706433/hook', '127.0.0.1'],
    ['https://127.1/hook', '127.0.0.1'],
    ['https://0x7f.0.0.1/hook', '127.0.0.1'],
    ['https://0177.0.0.1/hook', '127.0.0.1'],
    ['https://0x7f000001/hook', '127.0.0.1'],
    ['https://[::1]:8443/hook', '::1'],
    ['https://[::ffff:127.0.0.1]/hook', '::ffff:7f00:1'],
    ['https://[0:0:0:0:0:ffff:7f00:1]/hook', '::ffff:7f00:1'],
    ['https://10.0.0.1/hook', '10.0.0.1'],
    ['https://169.254.169.254/latest/meta-data/', '169.254.169.254'],
    ['https://[fd00::1]/hook', 'fd00::1'],
    ['https://[64:ff9b::a00:1]/hook', '64:ff9b::a00:1'],
  ])('refuses the IP-literal host of %s, however it is spelled', (url, address) => {
    expect(urlProblem(url, false)).toContain(`(${address})`);
  });

  it('accepts public IP-literal hosts and names it cannot judge without DNS', () => {
    expect(urlProblem('https://93.184.216.34/hook', false)).toBeUndefined();
    expect(urlProblem('https://[2606:4700::1111]:8443/hook?x=1', false)).toBeUndefined();
    expect(urlProblem('https://hooks.example.com/hook', false)).toBeUndefined();
  });
});

describe('Destinations resolved by DNS', () => {
  let dns: TestDnsServer;
  let answer: DnsAnswerFn;
  let opts: DestinationOptions;

  beforeAll(async () => {
    dns = await startDnsServer((name, type) => answer(name, type));
  });
  afterAll(() => dns.stop());
  beforeEach(() => {
    dns.queries.length = 0;
    answer = () => 'NXDOMAIN';
    opts = { allowLocal: false, dnsServers: [dns.address], resolveTimeoutMs: 500 };
  });

  describe('Method: destinationProblemOnSave', () => {
    it('accepts a name that resolves only to public addresses', async () => {
      answer = () => ['93.184.216.34', '2606:4700::1111'];
      expect(await destinationProblemOnSave('https://hooks.example.com/in', opts)).toBeUndefined();
      expect(dns.queries).toEqual(
        expect.arrayContaining([
          { name: 'hooks.example.com', type: 'A' },
          { name: 'hooks.example.com', type: 'AAAA' },
        ]),
      );
    });

    it('refuses a name that resolves to a private address', async () => {
      answer = () => ['10.0.0.5'];
      expect(await destinationProblemOnSave('https://internal.example.com/in', opts)).toBe(
        'resolves to a private address (10.0.0.5)',
      );
    });

    it('refuses a name with one public and one private address', async () => {
      answer = (_name, type) => (type === 'A' ? ['93.184.216.34'] : ['fd00::5']);
      expect(await destinationProblemOnSave('https://mixed.example.com/in', opts)).toBe(
        'resolves to a unique-local address (fd00::5)',
      );
    });

    it('accepts a name that does not resolve yet, since every attempt checks it again', async () => {
      answer = () => 'NXDOMAIN';
      expect(await destinationProblemOnSave('https://not-yet.example.com/in', opts)).toBeUndefined();
    });

    it('accepts a name whose DNS does not answer in time', async () => {
      answer = () => 'DROP';
      const started = Date.now();
      expect(await destinationProblemOnSave('https://slow.example.com/in', opts)).toBeUndefined();
      expect(Date.now() - started).toBeLessThan(2_000);
    });

    it('accepts names when no DNS server is reachable at all', async () => {
      const gone = await startDnsServer(() => 'NXDOMAIN');
      await gone.stop();
      const noDns = { ...opts, dnsServers: [gone.address] };
      expect(await destinationProblemOnSave('https://hooks.example.com/in', noDns)).toBeUndefined();
    });

    it('refuses a syntax problem before asking DNS', async () => {
      expect(await destinationProblemOnSave('http://hooks.example.com/in', opts)).toBe(
        `must use https; plain http ${localDeliveryHint}`,
      );
      expect(dns.queries).toEqual([]);
    });

    it('refuses localhost without asking the configured DNS servers', async () => {
      expect(await destinationProblemOnSave('https://localhost:8443/in', opts)).toMatch(
        /^resolves to a loopback address \((127\.0\.0\.1|::1)\); loopback receivers only where local delivery is on \(FSM_WEBHOOK_ALLOW_LOCAL=true, development only\)$/,
      );
      expect(dns.queries).toEqual([]);
    });

    it('accepts names resolving to loopback, but not to private addresses, when local delivery is allowed', async () => {
      const local = { ...opts, allowLocal: true };
      answer = () => ['127.0.0.1'];
      expect(await destinationProblemOnSave('http://receiver.test:4000/in', local)).toBeUndefined();
      answer = () => ['192.168.1.20'];
      expect(await destinationProblemOnSave('http://receiver.test:4000/in', local)).toBe(
        'resolves to a private address (192.168.1.20)',
      );
    });
  });

  describe('Method: resolveDestination', () => {
    it('pins the attempt to the addresses it checked, IPv4 first', async () => {
      answer = () => ['93.184.216.34', '2606:4700::1111'];
      const result = await resolveDestination('https://hooks.example.com:8443/in?x=1', opts);
      expect(result).toEqual({
        ok: true,
        destination: {
          url: new URL('https://hooks.example.com:8443/in?x=1'),
          address: '93.184.216.34',
          family: 4,
          addresses: [
            { address: '93.184.216.34', family: 4 },
            { address: '2606:4700::1111', family: 6 },
          ],
        },
      });
    });

    it('pins an IPv6-only name to its IPv6 address', async () => {
      answer = (_name, type) => (type === 'AAAA' ? ['2606:4700::1111'] : []);
      const result = await resolveDestination('https://v6.example.com/in', opts);
      expect(result).toMatchObject({ ok: true, destination: { address: '2606:4700::1111', family: 6 } });
    });

    it('pins an IP-literal host without asking DNS', async () => {
      const result = await resolveDestination('https://[2606:4700::1111]/in', opts);
      expect(result).toMatchObject({ ok: true, destination: { address: '2606:4700::1111', family: 6 } });
      expect(dns.queries).toEqual([]);
    });

    it('fails the attempt when the name does not resolve', async () => {
      answer = () => 'NXDOMAIN';
      expect(await resolveDestination('https://gone.example.com/in', opts)).toEqual({
        ok: false,
        error: 'dns: ENOTFOUND',
        failure: 'DNS_FAILED',
      });
    });

    it('fails the attempt when the name has no addresses', async () => {
      answer = () => [];
      expect(await resolveDestination('https://empty.example.com/in', opts)).toEqual({
        ok: false,
        error: 'dns: ENODATA',
        failure: 'DNS_FAILED',
      });
    });

    it('fails the attempt when DNS does not answer within the bound', async () => {
      answer = () => 'DROP';
      const started = Date.now();
      expect(await resolveDestination('https://slow.example.com/in', opts)).toEqual({
        ok: false,
        error: 'dns: ETIMEOUT',
        failure: 'DNS_FAILED',
      });
      expect(Date.now() - started).toBeLessThan(2_000);
    });

    it('fails the attempt when DNS fails for one family even though the other answered', async () => {
      answer = (_name, type) => (type === 'A' ? ['93.184.216.34'] : 'SERVFAIL');
      expect(await resolveDestination('https://flaky.example.com/in', opts)).toEqual({
        ok: false,
        error: 'dns: ESERVFAIL',
        failure: 'DNS_FAILED',
      });
    });

    it('refuses the attempt when the name resolves to a private address', async () => {
      answer = () => ['10.1.2.3'];
      expect(await resolveDestination('https://internal.example.com/in', opts)).toEqual({
        ok: false,
        error: 'destination refused: resolves to a private address (10.1.2.3)',
        failure: 'DESTINATION_REFUSED',
      });
    });

    it('refuses an attempt to a URL that would not be accepted on save', async () => {
      expect(await resolveDestination('http://93.184.216.34/in', opts)).toEqual({
        ok: false,
        error: `destination refused: must use https; plain http ${localDeliveryHint}`,
        failure: 'DESTINATION_REFUSED',
      });
    });
  });

  it('accepts a name that answers public on save and refuses the attempt once it answers loopback (DNS rebinding)', async () => {
    let aQueries = 0;
    answer = (_name, type) => {
      if (type !== 'A') return [];
      aQueries += 1;
      return aQueries === 1 ? ['93.184.216.34'] : ['127.0.0.1'];
    };

    expect(await destinationProblemOnSave('https://rebind.example.com/in', opts)).toBeUndefined();
    const attempt = await resolveDestination('https://rebind.example.com/in', opts);

    expect(attempt).toEqual({
      ok: false,
      error: `destination refused: resolves to a loopback address (127.0.0.1); loopback receivers ${localDeliveryHint}`,
      failure: 'DESTINATION_REFUSED',
    });
    expect(aQueries).toBe(2);
  });

  it('fails the attempt of a name accepted on save that still does not resolve', async () => {
    answer = () => 'NXDOMAIN';
    expect(await destinationProblemOnSave('https://later.example.com/in', opts)).toBeUndefined();
    expect(await resolveDestination('https://later.example.com/in', opts)).toEqual({
      ok: false,
      error: 'dns: ENOTFOUND',
      failure: 'DNS_FAILED',
    });
  });
});
