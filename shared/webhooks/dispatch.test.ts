/**
 * The dispatcher offers each event to the workspace's enabled, subscribed endpoints once, and an
 * endpoint created earlier in the same stream batch gets the events written after it.
 */
import { describe, expect, it } from 'vitest';
import type { StoredWebhookEndpoint } from '../domain/webhooks/webhook-endpoint.schema.ts';
import type { DomainEvent } from '../events/domain-event.ts';
import type { DeliveryMessage } from './delivery-queue.ts';
import { webhookDispatcher } from './dispatch.ts';

const event = (type: string, workspace = 'ws-1', id = `evt-${Math.random()}`): DomainEvent => ({
  id,
  type,
  occurred_at: '2026-06-01T10:00:00.000Z',
  workspace_id: workspace,
  resource: { type: type.split('.')[0] ?? '', id: 'r-1' },
  request: { id: 'req-1', correlation_id: 'corr-1' },
  data: { object: { id: 'r-1' } },
});

const endpoint = (id: string, subscriptions: string[], enabled = true) =>
  ({ id, subscriptions, enabled }) as StoredWebhookEndpoint;

const noDefinitions = { slugById: new Map<string, string>(), idBySlug: new Map<string, string>() };

function setup(endpoints: Record<string, StoredWebhookEndpoint[]>, names = noDefinitions) {
  const sent: DeliveryMessage[] = [];
  const reads: string[] = [];
  const dispatcher = webhookDispatcher({
    endpointsOf: async (workspaceId) => {
      reads.push(workspaceId);
      return endpoints[workspaceId] ?? [];
    },
    enqueue: async (messages) => {
      sent.push(...messages);
    },
    definitionNames: async () => names,
  });
  return { dispatcher, sent, reads, endpoints };
}

describe('Webhook dispatcher', () => {
  it('matches a subscription stored against a definition id after a rename, delivering the current slug', async () => {
    const scoped = {
      ...endpoint('a', ['custom_object.invoice.*']),
      subscription_scopes: ['def-1'],
    } as StoredWebhookEndpoint;
    // def-1 was renamed invoice → bill; def-2 is a new definition that took the slug invoice.
    const names = {
      slugById: new Map([
        ['def-1', 'bill'],
        ['def-2', 'invoice'],
      ]),
      idBySlug: new Map([
        ['bill', 'def-1'],
        ['invoice', 'def-2'],
      ]),
    };
    const { dispatcher, sent } = setup({ 'ws-1': [scoped] }, names);
    const ofRenamed = event('custom_object.invoice.created');
    ofRenamed.data.object = { definition_id: 'def-1', definition_slug: 'invoice' };
    const ofNew = event('custom_object.invoice.created');
    ofNew.data.object = { definition_id: 'def-2', definition_slug: 'invoice' };

    await dispatcher.handleBatch([ofRenamed, ofNew]);

    expect(sent).toHaveLength(1);
    expect(JSON.parse(sent[0]?.body ?? '')).toMatchObject({
      type: 'custom_object.bill.created',
      data: { object: { definition_id: 'def-1', definition_slug: 'bill' } },
    });
  });

  it('sends one message per matching enabled endpoint, with a stable delivery id and the envelope body', async () => {
    const { dispatcher, sent } = setup({
      'ws-1': [
        endpoint('a', ['area.*', '*', 'area.created']),
        endpoint('b', ['tag.*']),
        endpoint('c', ['area.created'], false),
      ],
    });
    const created = event('area.created');

    await dispatcher.handleBatch([created, created]);

    expect(sent.map((m) => m.endpoint_id)).toEqual(['a', 'a']);
    expect(sent[0]?.delivery_id).toBe(sent[1]?.delivery_id);
    expect(JSON.parse(sent[0]?.body ?? '')).toMatchObject({ type: 'area.created', id: sent[0]?.delivery_id });
    expect(sent[0]).toMatchObject({ attempt: 1, request_id: 'corr-1', workspace_id: 'ws-1' });
  });

  it('reads endpoints once per workspace and batch, again after an endpoint event in the batch', async () => {
    const sent: DeliveryMessage[] = [];
    let reads = 0;
    // The endpoint exists from its webhook_endpoint.created event on: the second read finds it.
    const dispatcher = webhookDispatcher({
      endpointsOf: async () => (++reads === 1 ? [] : [endpoint('new', ['area.created'])]),
      enqueue: async (messages) => {
        sent.push(...messages);
      },
      definitionNames: async () => noDefinitions,
    });

    await dispatcher.handleBatch([
      event('area.created'),
      event('area.created'),
      event('webhook_endpoint.created'),
      event('area.created'),
      event('area.created'),
    ]);

    expect(reads).toBe(2);
    expect(sent.map((m) => m.endpoint_id)).toEqual(['new', 'new']);
  });

  it('never delivers audit-only events or events of other workspaces', async () => {
    const { dispatcher, sent } = setup({ 'ws-1': [endpoint('a', ['*'])], 'ws-2': [] });

    await dispatcher.handleBatch([event('webhook_endpoint.updated'), event('area.created', 'ws-2')]);

    expect(sent).toEqual([]);
  });
});
