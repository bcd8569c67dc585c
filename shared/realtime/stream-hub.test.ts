/**
 * The hub sends every live event a connection may see, whatever the order of their ids (commits
 * reach the stream in commit order), and never sends a replayed event twice.
 */
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { Grant } from '../auth/grants.ts';
import type { DomainEvent } from '../events/domain-event.ts';
import { StreamHub } from './stream-hub.ts';

const principal = (id: string, workspaceId = 'ws-1', roles = ['dispatcher']) => ({
  id,
  kind: 'user' as const,
  workspaceId,
  roles,
  grants: new Set<Grant>(['cases:read']),
});

function fakeResponse() {
  const written: string[] = [];
  const res = {
    write: (chunk: string, done?: (error?: Error) => void) => {
      written.push(chunk);
      done?.();
      return true;
    },
    end: () => {},
    on: () => res,
  };
  return { res: res as unknown as ServerResponse, written };
}

const caseEvent = (id: string, workspace = 'ws-1', assignee?: string): DomainEvent => ({
  id,
  type: 'case.created',
  occurred_at: '2026-06-01T10:00:00.000Z',
  workspace_id: workspace,
  resource: { type: 'case', id: `case-${id}` },
  data: { object: { id: `case-${id}`, ...(assignee ? { assignee_id: assignee } : {}) } },
});

const ids = (written: string[]) => written.flatMap((chunk) => /^id: (.+)$/m.exec(chunk)?.[1] ?? []);

describe('Stream hub', () => {
  it('sends live events whose ids arrive out of order', () => {
    const hub = new StreamHub({ timeScale: () => 1000 });
    const { res, written } = fakeResponse();
    const connection = hub.attach(principal('u1'), res);
    hub.release(connection);

    hub.publish(caseEvent('0002'));
    hub.publish(caseEvent('0001'));

    expect(ids(written)).toEqual(['0002', '0001']);
    hub.closeAll();
  });

  it('holds live events during the replay and skips those the replay sent', () => {
    const hub = new StreamHub({ timeScale: () => 1000 });
    const { res, written } = fakeResponse();
    const connection = hub.attach(principal('u1'), res);

    hub.publish(caseEvent('0003'));
    hub.publish(caseEvent('0004'));
    connection.replayed = new Set(['0003']);
    hub.write(connection, {
      kind: 'CASE_CREATED:V1',
      eventId: '0003',
      timestamp: '',
      tenantId: 'ws-1',
      businessId: '',
    });
    hub.release(connection);

    expect(ids(written)).toEqual(['0003', '0004']);
    hub.closeAll();
  });

  it('sends nothing across workspaces, and field workers only their own cases', () => {
    const hub = new StreamHub({ timeScale: () => 1000 });
    const other = fakeResponse();
    const technician = fakeResponse();
    hub.release(hub.attach(principal('u2', 'ws-2'), other.res));
    hub.release(hub.attach(principal('tech', 'ws-1', ['technician']), technician.res));

    hub.publish(caseEvent('0005'));
    hub.publish(caseEvent('0006', 'ws-1', 'tech'));

    expect(ids(other.written)).toEqual([]);
    expect(ids(technician.written)).toEqual(['0006']);
    hub.closeAll();
  });

  it('admits 5 connections per identity, and a 6th once one is gone', () => {
    const hub = new StreamHub({ timeScale: () => 1000 });
    const who = principal('u3');

    const admitted = Array.from({ length: 6 }, () => hub.admit(who));
    hub.releaseSlot(who);

    expect(admitted).toEqual([undefined, undefined, undefined, undefined, undefined, 'identity']);
    expect(hub.admit(who)).toBeUndefined();
  });

  it('admits no more than its capacity on the node, whoever asks, and room again once one is gone', () => {
    const hub = new StreamHub({ timeScale: () => 1000, capacity: 3 });
    const people = ['a', 'b', 'c', 'd'].map((id) => principal(id));

    const admitted = people.map((who) => hub.admit(who));
    const { res } = fakeResponse();
    const connection = hub.attach(people[0]!, res);
    hub.close(connection);

    expect(admitted).toEqual([undefined, undefined, undefined, 'node']);
    expect(hub.admit(people[3]!)).toBeUndefined();
    expect(hub.admit(people[3]!)).toBe('node');
  });

  it('sends a heartbeat every 30 s without an id line and drops the connection at 90 s', () => {
    const hub = new StreamHub({ timeScale: () => 1 });
    const { res, written } = fakeResponse();
    const start = Date.now();
    const connection = hub.attach(principal('u1'), res);
    hub.release(connection);

    hub.tick(start + 29_000);
    expect(written).toEqual([]);
    hub.tick(start + 30_500);
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(/^event: HEARTBEAT:V1\ndata: /);
    hub.tick(start + 31_000);
    expect(written).toHaveLength(1);
    hub.tick(start + 61_000);
    expect(written).toHaveLength(2);

    hub.tick(start + 90_500);
    expect(connection.closed).toBe(true);
    expect(hub.size).toBe(0);
    hub.closeAll();
  });

  it('closes a connection whose unsent bytes did not drain over a heartbeat period', () => {
    const hub = new StreamHub({ timeScale: () => 1 });
    const { res } = fakeResponse();
    const socket = res as unknown as { writableLength: number };
    const start = Date.now();
    const connection = hub.attach(principal('u1'), res);
    hub.release(connection);

    socket.writableLength = 70_000; // the kernel buffer filled up: a burst, or a client that stopped reading
    hub.tick(start + 30_500);
    expect(connection.closed).toBe(false);
    socket.writableLength = 70_100; // a whole period later nothing drained
    hub.tick(start + 61_000);
    expect(connection.closed).toBe(true);
    hub.closeAll();
  });
});
