/**
 * A tiny authoritative DNS server on 127.0.0.1 (UDP) whose answers a test decides, query by
 * query. Webhook destinations are resolved through it (FSM_WEBHOOK_DNS_SERVERS, or the
 * `dnsServers` option of shared/webhooks/destination.ts), so tests can register names that
 * exist nowhere else, make a name NXDOMAIN, slow, or change its answer between two lookups
 * (DNS rebinding) without any real DNS, which CI does not have.
 *
 * Only A and AAAA get records (TTL 0, so nothing between us and the resolver may cache them);
 * every other type is answered with no records.
 */
import { createSocket } from 'node:dgram';
import { isIPv4, isIPv6 } from 'node:net';
import {
  AUTHORITATIVE_ANSWER,
  decode,
  encode,
  type Packet,
  RECURSION_AVAILABLE,
  RECURSION_DESIRED,
} from 'dns-packet';

/**
 * The addresses of a name (IPv4 ones go into A answers, IPv6 ones into AAAA answers, so one
 * list can serve both types), or a failure: NXDOMAIN (the name does not exist), SERVFAIL, or
 * DROP (the query is never answered, for resolution timeouts).
 */
export type DnsAnswer = readonly string[] | 'NXDOMAIN' | 'SERVFAIL' | 'DROP';

/** `name` is lower-cased and without the trailing dot; `type` is 'A', 'AAAA', … */
export type DnsAnswerFn = (name: string, type: string) => DnsAnswer;

export interface DnsQuery {
  name: string;
  type: string;
}

export interface TestDnsServer {
  /** `127.0.0.1:<port>`, as FSM_WEBHOOK_DNS_SERVERS and `dnsServers` take it. */
  address: string;
  /** Every question received, in order. */
  queries: DnsQuery[];
  stop(): Promise<void>;
}

const rcodes = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3 } as const;

export async function startDnsServer(answer: DnsAnswerFn): Promise<TestDnsServer> {
  const socket = createSocket('udp4');
  const queries: DnsQuery[] = [];

  socket.on('message', (message, remote) => {
    let query: Packet;
    try {
      query = decode(message);
    } catch {
      return; // not DNS: a real server would drop it too
    }
    const questions = query.questions ?? [];
    let rcode: number = rcodes.NOERROR;
    const answers: NonNullable<Packet['answers']> = [];
    for (const question of questions) {
      const name = question.name.toLowerCase().replace(/\.$/, '');
      queries.push({ name, type: question.type });
      const result = answer(name, question.type);
      if (result === 'DROP') return;
      if (result === 'NXDOMAIN' || result === 'SERVFAIL') {
        rcode = rcodes[result];
        continue;
      }
      for (const address of result) {
        if (question.type === 'A' && isIPv4(address)) {
          answers.push({ type: 'A', name: question.name, ttl: 0, class: 'IN', data: address });
        } else if (question.type === 'AAAA' && isIPv6(address)) {
          answers.push({ type: 'AAAA', name: question.name, ttl: 0, class: 'IN', data: address });
        }
      }
    }
    const response = encode({
      type: 'response',
      id: query.id ?? 0,
      // Echo the client's recursion-desired bit; the rcode sits in the low four bits.
      flags: AUTHORITATIVE_ANSWER | RECURSION_AVAILABLE | ((query.flags ?? 0) & RECURSION_DESIRED) | rcode,
      questions,
      answers,
    });
    socket.send(response, remote.port, remote.address);
  });

  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => {
      socket.off('error', reject);
      resolve();
    });
  });
  const { port } = socket.address();

  return {
    address: `127.0.0.1:${port}`,
    queries,
    stop: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
