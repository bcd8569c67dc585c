/**
 * The live connections of one node and what they receive. Every node receives every event of
 * every workspace (fanout.ts) and writes each to the connections of its workspace that may see
 * it (stream-kinds.ts). Per connection: a heartbeat about every 30 s, a drop after 90 s (the
 * client reconnects with a current token), removal on the first failed write. Per identity
 * (user or service account) at most 5 connections on a node: the 6th is refused with 429. Per
 * node at most `capacity` connections (FSM_STREAM_MAX_CONNECTIONS, from the container's memory:
 * lib/realtime-capacity.ts): one more is refused with 503 and Retry-After, so a full task never
 * runs out of memory and the client retries on another. FSM_TIME_SCALE scales heartbeat and
 * drop, as it scales the webhook schedule.
 */
import type { ServerResponse } from 'node:http';
import { v7 as uuidv7 } from 'uuid';
import type { Principal } from '../auth/actor.ts';
import type { DomainEvent } from '../events/domain-event.ts';
import { stringifyWithoutNulls } from '../json/without-nulls.ts';
import { controlEnvelope, type StreamEnvelope, streamMessageOf } from './stream-kinds.ts';

export const maxConnectionsPerIdentity = 5;
export const heartbeatSeconds = 30;
export const dropAfterSeconds = 90;

/**
 * What a subscriber holds on this node, and nothing more: its identity and grants (which events
 * it sees), its cursor, and its response. A thousand idle connections are measured by `npm run
 * bench:event-stream`; each field here is paid that many times.
 */
export interface Connection {
  principal: Principal;
  /** The newest event id written (or replayed) to this connection. */
  lastEventId: string | undefined;
  /**
   * Ids the replay sent (none: no replay): a live event among them is not sent twice. Live events
   * are otherwise never compared by id, because commits reach the stream in commit order, not in
   * the order of their ids (taken when each request started).
   */
  replayed?: Set<string>;
  /** Live events held back while the replay runs. */
  held: StreamEnvelope[] | undefined;
  res: ServerResponse;
  closed: boolean;
  /** When the next heartbeat is due and when the connection is dropped (ms since the epoch). */
  heartbeatAt: number;
  dropAt: number;
  /** Bytes the socket had not sent at the previous heartbeat. */
  unsentAtHeartbeat?: number;
}

/** One SSE message; control messages carry no `id:` line, so Last-Event-ID keeps naming an event. */
export function formatMessage(envelope: StreamEnvelope, withId = true): string {
  return `event: ${envelope.kind}\n${withId ? `id: ${envelope.eventId}\n` : ''}data: ${stringifyWithoutNulls(envelope)}\n\n`;
}

/** Why a connection is not admitted: its identity holds 5 already, or the node is full. */
export type AdmitRefusal = 'identity' | 'node';

export class StreamHub {
  private readonly byWorkspace = new Map<string, Set<Connection>>();
  private readonly byIdentity = new Map<string, number>();
  private readonly timeScale: () => number;
  /** Connections the node holds at most (slots reserved by `admit` included). */
  readonly capacity: number;
  /** Slots reserved by `admit` and not given back: every connection, and those being opened. */
  private reserved = 0;
  private ticker: NodeJS.Timeout | undefined;
  /** Since the last `takeCounts`: connections attached, events (not heartbeats) written. */
  private counts = { opened: 0, eventsSent: 0 };

  constructor(opts: { timeScale: () => number; capacity?: number }) {
    this.timeScale = opts.timeScale;
    this.capacity = opts.capacity ?? Number.POSITIVE_INFINITY;
  }

  get size(): number {
    let count = 0;
    for (const set of this.byWorkspace.values()) count += set.size;
    return count;
  }

  /** Connections open now, and connections opened and events sent since the last call (stream-metrics.ts). */
  takeCounts(): { connections: number; opened: number; eventsSent: number } {
    const taken = { connections: this.size, ...this.counts };
    this.counts = { opened: 0, eventsSent: 0 };
    return taken;
  }

  /** Reserves a slot of the identity and of the node, or says which of them is full. */
  admit(principal: Principal): AdmitRefusal | undefined {
    if (this.reserved >= this.capacity) return 'node';
    const key = identityOf(principal);
    const held = this.byIdentity.get(key) ?? 0;
    if (held >= maxConnectionsPerIdentity) return 'identity';
    this.byIdentity.set(key, held + 1);
    this.reserved++;
    return undefined;
  }

  /** Starts a connection whose headers are written: it receives live events (held until `release`). */
  attach(principal: Principal, res: ServerResponse): Connection {
    const scale = this.timeScale();
    const now = Date.now();
    const connection: Connection = {
      principal,
      lastEventId: undefined,
      held: [],
      res,
      closed: false,
      heartbeatAt: now + heartbeatSeconds * 1000 * scale,
      dropAt: now + dropAfterSeconds * 1000 * scale,
    };
    const set = this.byWorkspace.get(principal.workspaceId) ?? new Set<Connection>();
    set.add(connection);
    this.byWorkspace.set(principal.workspaceId, set);
    this.counts.opened++;
    // One listener function for every connection (no closure per connection): the response
    // finds its connection and hub through `attached`.
    attached.set(res, { hub: this, connection });
    res.on('close', detachResponse);
    res.on('error', detachResponse);
    this.startTicking(scale);
    return connection;
  }

  /**
   * One timer for the whole node instead of two per connection: every tick (a thirtieth of the
   * heartbeat period) sends the heartbeats that are due and drops the connections whose time is
   * up. Thousands of connections then cost no timer objects of their own.
   */
  private startTicking(scale: number): void {
    if (this.ticker) return;
    this.ticker = setInterval(() => this.tick(Date.now()), (heartbeatSeconds * 1000 * scale) / 30);
    this.ticker.unref();
  }

  /** Heartbeats and drops that are due at `now`; stops the timer when no connection is left. */
  tick(now: number): void {
    const scale = this.timeScale();
    for (const [workspaceId, set] of this.byWorkspace) {
      for (const connection of set) {
        if (now >= connection.dropAt) {
          this.close(connection);
        } else if (now >= connection.heartbeatAt) {
          // The socket's buffer was full at the last heartbeat and has not drained since: the
          // client reads nothing (or its network is gone without a reset). Such a connection is
          // cleaned up now rather than buffered until the drop.
          const unsent = connection.res.writableLength ?? 0;
          if (
            unsent > 0 &&
            (connection.unsentAtHeartbeat ?? 0) > 0 &&
            unsent >= (connection.unsentAtHeartbeat ?? 0)
          ) {
            this.close(connection);
            continue;
          }
          connection.unsentAtHeartbeat = unsent;
          connection.heartbeatAt = now + heartbeatSeconds * 1000 * scale;
          this.write(connection, controlEnvelope('HEARTBEAT:V1', workspaceId, uuidv7()), false);
        }
      }
    }
    if (this.byWorkspace.size === 0 && this.ticker) {
      clearInterval(this.ticker);
      this.ticker = undefined;
    }
  }

  /** After the replay: live events held meanwhile go out, those the replay already sent do not. */
  release(connection: Connection): void {
    const held = connection.held ?? [];
    connection.held = undefined;
    for (const envelope of held) {
      if (!connection.replayed?.has(envelope.eventId)) this.write(connection, envelope);
    }
  }

  publish(event: DomainEvent): void {
    const connections = this.byWorkspace.get(event.workspace_id);
    if (!connections?.size) return;
    const message = streamMessageOf(event);
    if (!message) return;
    for (const connection of connections) {
      if (!message.visibleTo(connection.principal)) continue;
      if (connection.held) connection.held.push(message.envelope);
      else if (!connection.replayed?.has(message.envelope.eventId)) this.write(connection, message.envelope);
    }
  }

  /** Writes one message; a failed write removes the connection (SPEC.md: dead connections go). */
  write(connection: Connection, envelope: StreamEnvelope, withId = true): void {
    if (connection.closed) return;
    if (withId) {
      connection.lastEventId = envelope.eventId;
      this.counts.eventsSent++;
    }
    try {
      connection.res.write(formatMessage(envelope, withId), (error) => {
        if (error) this.close(connection);
      });
    } catch {
      this.close(connection);
    }
  }

  close(connection: Connection): void {
    if (connection.closed) return;
    connection.res.end();
    this.detach(connection);
  }

  closeAll(): void {
    for (const set of this.byWorkspace.values()) for (const connection of [...set]) this.close(connection);
    clearInterval(this.ticker);
    this.ticker = undefined;
  }

  detach(connection: Connection): void {
    if (connection.closed) return;
    connection.closed = true;
    const set = this.byWorkspace.get(connection.principal.workspaceId);
    set?.delete(connection);
    if (set?.size === 0) this.byWorkspace.delete(connection.principal.workspaceId);
    this.releaseSlot(connection.principal);
  }

  /** Gives back a slot reserved by `admit` (also when the connection never started). */
  releaseSlot(principal: Principal): void {
    this.reserved = Math.max(0, this.reserved - 1);
    const key = identityOf(principal);
    const held = (this.byIdentity.get(key) ?? 1) - 1;
    if (held <= 0) this.byIdentity.delete(key);
    else this.byIdentity.set(key, held);
  }
}

const attached = new WeakMap<ServerResponse, { hub: StreamHub; connection: Connection }>();

/** A connection's response closed or failed: the connection leaves its hub. */
function detachResponse(this: ServerResponse): void {
  const entry = attached.get(this);
  entry?.hub.detach(entry.connection);
}

function identityOf(principal: Principal): string {
  return `${principal.workspaceId}/${principal.id}`;
}
