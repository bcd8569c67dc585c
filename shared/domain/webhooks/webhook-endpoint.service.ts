/**
 * Webhook endpoint rules: creation with a fresh secret (returned once), merge-patch edits,
 * rotation, deletion, the list, and the event catalog. The destination is checked on every save
 * (SSRF rules) and again before every attempt; subscriptions are checked against the
 * workspace's event catalog. Changes emit webhook_endpoint.* events, which the audit log records
 * and webhooks never deliver (event-registry.ts).
 */
import { v7 as uuidv7 } from 'uuid';
import type { z } from 'zod';
import type { Actor } from '../../auth/actor.ts';
import { config } from '../../config.ts';
import { domainEvent, previousAttributes } from '../../events/domain-event.ts';
import { type CatalogEntry, customObjectCatalog, webhookCatalog } from '../../events/event-registry.ts';
import type { FieldError } from '../../schema/field-error.ts';
import { defaultPageSize, pageOf } from '../../schema/list.ts';
import {
  type DefinitionNames,
  definitionNames,
  renderSubscriptions,
  scopesOf,
} from '../../webhooks/definition-scopes.ts';
import { destinationProblemOnSave } from '../../webhooks/destination.ts';
import { newSecret } from '../../webhooks/signature.ts';
import { matchesSomeEvent, patternSyntaxProblem } from '../../webhooks/subscription-pattern.ts';
import { deleteExisting, mergePatch, updateVersioned } from '../versioned-write.ts';
import {
  type CreateWebhookEndpointSchema,
  maxEndpointsPerWorkspace,
  type StoredWebhookEndpoint,
  type UpdateWebhookEndpointSchema,
  type WebhookEndpoint,
  type WebhookEndpointListQuery,
} from './webhook-endpoint.schema.ts';
import { webhookEndpointStore } from './webhook-endpoint.store.ts';
import { WebhookError } from './webhook-error.ts';

const resource = (id: string) => ({ type: 'webhook_endpoint', id });

/** The workspace's event catalog: the generic events, then three per custom-object definition. */
interface Catalog {
  entries: CatalogEntry[];
  types: string[];
  names: DefinitionNames;
}

async function catalogOf(workspaceId: string): Promise<Catalog> {
  const names = await definitionNames(workspaceId);
  const entries = [...webhookCatalog(), ...[...names.slugById.values()].flatMap(customObjectCatalog)].sort(
    (a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : 0),
  );
  return { entries, types: entries.map((entry) => entry.type), names };
}

export async function listEventTypes(ctx: Actor) {
  return { items: (await catalogOf(ctx.workspaceId)).entries };
}

/**
 * The representation: never the secret, never the last test's internals. Subscriptions stored
 * against a definition render its current slug; one whose definition is gone is invalid.
 */
export function toEndpoint(stored: StoredWebhookEndpoint, catalog: Catalog): WebhookEndpoint {
  const rendered = renderSubscriptions(stored.subscriptions, stored.subscription_scopes, catalog.names);
  return {
    id: stored.id,
    display_name: stored.display_name,
    endpoint_url: stored.endpoint_url,
    signature_scheme: stored.signature_scheme,
    enabled: stored.enabled,
    retry: stored.retry,
    subscriptions: rendered.map((subscription) => subscription.pattern),
    invalid_subscriptions: rendered
      .filter(
        (subscription) => subscription.orphaned || !matchesSomeEvent(subscription.pattern, catalog.types),
      )
      .map((subscription) => subscription.pattern),
    created_at: stored.created_at,
    updated_at: stored.updated_at,
    lock_version: stored.lock_version,
  };
}

/** What a domain event carries: the representation (secrets stay out of the audit log). */
const eventObject = (stored: StoredWebhookEndpoint, catalog: Catalog) =>
  toEndpoint(stored, catalog) as unknown as Record<string, unknown>;

function subscriptionErrors(catalog: Catalog, subscriptions: readonly string[]): FieldError[] {
  const errors: FieldError[] = [];
  subscriptions.forEach((pattern, index) => {
    const syntax = patternSyntaxProblem(pattern);
    if (syntax) {
      errors.push({ type: 'field-invalid', pointer: `#/subscriptions/${index}`, detail: syntax.reason });
    } else if (!matchesSomeEvent(pattern, catalog.types)) {
      errors.push({
        type: 'field-invalid',
        pointer: `#/subscriptions/${index}`,
        detail: `matches no event of this workspace (see GET /api/v2/webhooks/event-types): ${pattern}`,
      });
    }
  });
  return errors;
}

async function destinationErrors(url: string): Promise<FieldError[]> {
  const { allowLocal, dnsServers } = config().webhooks;
  const problem = await destinationProblemOnSave(url, { allowLocal, ...(dnsServers ? { dnsServers } : {}) });
  return problem ? [{ type: 'field-invalid', pointer: '#/endpoint_url', detail: problem }] : [];
}

async function checkOrThrow(
  catalog: Catalog,
  url: string | undefined,
  subscriptions: readonly string[] | undefined,
) {
  const errors = [
    ...(url !== undefined ? await destinationErrors(url) : []),
    ...(subscriptions ? subscriptionErrors(catalog, subscriptions) : []),
  ];
  if (errors.length > 0) throw new WebhookError('invalid', { fields: errors });
}

export async function listEndpoints(ctx: Actor, query: z.output<typeof WebhookEndpointListQuery>) {
  const request = { page: query.page ?? 0, size: query.size ?? defaultPageSize };
  const catalog = await catalogOf(ctx.workspaceId);
  if (query.definition_id !== undefined) {
    // Endpoints scoped to a definition: a workspace holds at most maxEndpointsPerWorkspace, so
    // the filter reads them all (one Query) and pages in memory.
    const definitionId = query.definition_id;
    const scoped = (await webhookEndpointStore.of(ctx).list())
      .filter((endpoint) => endpoint.subscription_scopes?.includes(definitionId))
      .sort((a, b) =>
        a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : 1,
      );
    const start = request.page * request.size;
    return {
      items: scoped.slice(start, start + request.size).map((endpoint) => toEndpoint(endpoint, catalog)),
      page: pageOf(scoped.length, query),
    };
  }
  const { items, total } = await webhookEndpointStore.of(ctx).page({
    order: [{ field: 'created_at', direction: 'asc' }],
    ...request,
  });
  return { items: items.map((item) => toEndpoint(item, catalog)), page: pageOf(total, query) };
}

async function findOrThrow(ctx: Actor, id: string): Promise<StoredWebhookEndpoint> {
  const endpoint = await webhookEndpointStore.of(ctx).get(id);
  if (!endpoint) throw new WebhookError('not-found');
  return endpoint;
}

export async function getEndpoint(ctx: Actor, id: string): Promise<WebhookEndpoint> {
  const [endpoint, catalog] = await Promise.all([findOrThrow(ctx, id), catalogOf(ctx.workspaceId)]);
  return toEndpoint(endpoint, catalog);
}

export async function createEndpoint(
  ctx: Actor,
  input: z.output<typeof CreateWebhookEndpointSchema>,
): Promise<WebhookEndpoint & { secret: string }> {
  const catalog = await catalogOf(ctx.workspaceId);
  await checkOrThrow(catalog, input.endpoint_url, input.subscriptions);
  const { total } = await webhookEndpointStore.of(ctx).page({
    order: [{ field: 'id', direction: 'asc' }],
    page: 0,
    size: 1,
  });
  if (total >= maxEndpointsPerWorkspace) {
    throw new WebhookError('conflict', {
      detail: `A workspace holds at most ${maxEndpointsPerWorkspace} webhook endpoints; delete one first.`,
    });
  }
  const now = new Date().toISOString();
  const endpoint: StoredWebhookEndpoint = {
    id: uuidv7(),
    display_name: input.display_name,
    endpoint_url: input.endpoint_url,
    signature_scheme: input.signature_scheme ?? 'HMAC_SHA256',
    enabled: input.enabled ?? true,
    retry: input.retry ?? true,
    subscriptions: input.subscriptions ?? [],
    subscription_scopes: scopesOf(input.subscriptions ?? [], catalog.names),
    invalid_subscriptions: [],
    created_at: now,
    updated_at: now,
    lock_version: 0,
    secret: newSecret(),
  };
  await webhookEndpointStore
    .of(ctx)
    .create(
      endpoint,
      domainEvent(ctx, 'webhook_endpoint.created', resource(endpoint.id), eventObject(endpoint, catalog)),
    );
  return { ...toEndpoint(endpoint, catalog), secret: endpoint.secret };
}

/** A write of the stored endpoint that keeps the lock_version rules (versioned-write.ts). */
export async function writeEndpoint(
  ctx: Actor,
  id: string,
  expectedVersion: number | undefined,
  apply: (current: StoredWebhookEndpoint) => StoredWebhookEndpoint,
  known?: Catalog,
) {
  const catalog = known ?? (await catalogOf(ctx.workspaceId));
  const written = await updateVersioned<StoredWebhookEndpoint>({
    key: `webhook_endpoint:${ctx.workspaceId}:${id}`,
    load: () => webhookEndpointStore.of(ctx).get(id),
    expectedVersion,
    apply,
    save: (next, current) =>
      webhookEndpointStore
        .of(ctx)
        .replace(
          next,
          current,
          domainEvent(
            ctx,
            'webhook_endpoint.updated',
            resource(id),
            eventObject(next, catalog),
            previousAttributes(eventObject(current, catalog), eventObject(next, catalog)),
          ),
        ),
  });
  return { ...written, catalog };
}

export async function updateEndpoint(
  ctx: Actor,
  id: string,
  patch: z.output<typeof UpdateWebhookEndpointSchema>,
): Promise<WebhookEndpoint> {
  const catalog = await catalogOf(ctx.workspaceId);
  await checkOrThrow(catalog, patch.endpoint_url, patch.subscriptions);
  const { after } = await writeEndpoint(
    ctx,
    id,
    patch.lock_version,
    (current) => {
      const next = mergePatch(
        current as unknown as Record<string, unknown>,
        patch,
      ) as unknown as StoredWebhookEndpoint;
      // New subscriptions are stored against the definitions they name now.
      return patch.subscriptions
        ? { ...next, subscription_scopes: scopesOf(patch.subscriptions, catalog.names) }
        : next;
    },
    catalog,
  );
  return toEndpoint(after, catalog);
}

/** A new secret at once: the next attempt (read just before it is made) signs with it. */
export async function rotateSecret(ctx: Actor, id: string): Promise<WebhookEndpoint & { secret: string }> {
  const secret = newSecret();
  const { after, catalog } = await writeEndpoint(ctx, id, undefined, (current) => ({ ...current, secret }));
  return { ...toEndpoint(after, catalog), secret };
}

export async function deleteEndpoint(ctx: Actor, id: string): Promise<void> {
  const catalog = await catalogOf(ctx.workspaceId);
  await deleteExisting<StoredWebhookEndpoint>({
    load: () => webhookEndpointStore.of(ctx).get(id),
    remove: (current) =>
      webhookEndpointStore
        .of(ctx)
        .remove(
          current,
          domainEvent(ctx, 'webhook_endpoint.deleted', resource(id), eventObject(current, catalog)),
        ),
  });
}
