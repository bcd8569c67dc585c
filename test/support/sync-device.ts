/**
 * A technician's app as offline sync sees it (API-DECISIONS.md, "Offline sync for field apps"):
 * a copy of records by `<type>#<id>`, the cursor of its last pull, and the mutations it has not
 * seen applied. Pulls apply changes as an app must (upsert: keep the record; delete and evict:
 * drop it); pushes send the pending mutations and drop those the server reports applied.
 */
import { randomUUID } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { type ApiResponse, call } from './api.ts';

export interface PendingMutation {
  id: number;
  type: string;
  record_id: string;
  op: 'create' | 'update' | 'delete';
  base_version?: number;
  data?: Record<string, unknown>;
}

export class SyncDevice {
  readonly installationId = `app-${randomUUID()}`;
  readonly copy = new Map<string, Record<string, any>>();
  cursor: string | undefined;
  pending: PendingMutation[] = [];
  nextMutationId = 1;
  pulls = 0;

  readonly token: string;

  constructor(token: string) {
    this.token = token;
  }

  async pullPage(options: { limit?: number; reset?: boolean; cursor?: string } = {}): Promise<ApiResponse> {
    const cursor = options.cursor ?? this.cursor;
    return call('POST', '/api/v2/sync/pull', {
      token: this.token,
      body: {
        installation_id: this.installationId,
        ...(cursor && !options.reset ? { cursor } : {}),
        ...(options.limit ? { limit: options.limit } : {}),
        ...(options.reset ? { reset: true } : {}),
      },
    });
  }

  apply(page: { changes: Array<{ type: string; id: string; op: string; data?: Record<string, any> }> }) {
    for (const change of page.changes) {
      const key = `${change.type}#${change.id}`;
      if (change.op === 'upsert') this.copy.set(key, change.data ?? {});
      else this.copy.delete(key);
    }
  }

  /** Pulls until `has_more` is false; a full pull (no cursor) starts from an empty copy. */
  async sync(options: { limit?: number } = {}): Promise<Array<Record<string, any>>> {
    if (!this.cursor) this.copy.clear();
    const pages: Array<Record<string, any>> = [];
    for (;;) {
      const response = await this.pullPage(options);
      if (response.status !== 200) throw new Error(`pull answered ${response.status}: ${response.text}`);
      this.pulls += 1;
      this.apply(response.body);
      this.cursor = response.body.cursor;
      pages.push(response.body);
      if (!response.body.has_more) return pages;
    }
  }

  /** Queues a mutation (an edit made offline) and returns it. */
  edit(mutation: Omit<PendingMutation, 'id'>): PendingMutation {
    const queued = { ...mutation, id: this.nextMutationId++ };
    this.pending.push(queued);
    return queued;
  }

  /** A comment written offline on a case: its id made on the device. */
  comment(caseId: string, body: string): PendingMutation {
    return this.edit({
      type: 'comment',
      record_id: uuidv7(),
      op: 'create',
      data: { target_type: 'core:case', target_id: caseId, body_markdown: body },
    });
  }

  async push(mutations = this.pending): Promise<ApiResponse> {
    const response = await call('POST', '/api/v2/sync/push', {
      token: this.token,
      body: { installation_id: this.installationId, mutations },
    });
    if (response.status === 200) {
      const last = response.body.last_mutation_id as number;
      this.pending = this.pending.filter((mutation) => mutation.id > last);
    }
    return response;
  }
}
