/**
 * Webhook subscriptions scoped to a custom-object definition (SPEC.md, "Custom-object
 * subscriptions"): a subscription that names a definition by slug (`custom_object.invoice.*`,
 * `custom_object.invoice.created`) is stored against the definition's id, beside the text the
 * client sent. It is rendered with the definition's current slug, so a rename keeps it matching
 * and changes the delivered `type`; once the definition is deleted it matches nothing, and a new
 * definition with the same slug (another id) does not revive it.
 */
import { definitionStore } from '../domain/custom-objects/definition.store.ts';
import type { DomainEvent } from '../events/domain-event.ts';
import { isCustomObjectEvent } from '../events/event-registry.ts';

export interface DefinitionNames {
  slugById: ReadonlyMap<string, string>;
  idBySlug: ReadonlyMap<string, string>;
}

/** The workspace's definitions by id and by slug (one Query: a workspace holds hundreds at most). */
export async function definitionNames(workspaceId: string): Promise<DefinitionNames> {
  const definitions = await definitionStore.of(workspaceId).list();
  return {
    slugById: new Map(definitions.map((definition) => [definition.id, definition.slug])),
    idBySlug: new Map(definitions.map((definition) => [definition.slug, definition.id])),
  };
}

/** The slug a subscription names explicitly (`custom_object.<slug>.…`), if any. */
export function scopedSlug(pattern: string): string | undefined {
  const [first, second, ...rest] = pattern.split('.');
  return first === 'custom_object' && second && second !== '*' && rest.length > 0 ? second : undefined;
}

/** The definition ids the subscriptions name, in their order (null: not scoped to a definition). */
export function scopesOf(subscriptions: readonly string[], names: DefinitionNames): Array<string | null> {
  return subscriptions.map((pattern) => {
    const slug = scopedSlug(pattern);
    return slug === undefined ? null : (names.idBySlug.get(slug) ?? null);
  });
}

export interface RenderedSubscription {
  pattern: string;
  /** Scoped to a definition that no longer exists: it matches nothing. */
  orphaned: boolean;
}

/** The subscriptions with the current slugs of the definitions they are stored against. */
export function renderSubscriptions(
  subscriptions: readonly string[],
  scopes: ReadonlyArray<string | null> | undefined,
  names: DefinitionNames | undefined,
): RenderedSubscription[] {
  return subscriptions.map((pattern, index) => {
    const scope = scopes?.[index];
    if (!scope) return { pattern, orphaned: false };
    const slug = names?.slugById.get(scope);
    if (slug === undefined) return { pattern, orphaned: names !== undefined };
    const [first, , ...rest] = pattern.split('.');
    return { pattern: [first, slug, ...rest].join('.'), orphaned: false };
  });
}

/** The type an event is delivered as: a custom-object event renders its definition's current slug. */
export function deliveredType(event: DomainEvent, names: DefinitionNames | undefined): string {
  if (!isCustomObjectEvent(event.type)) return event.type;
  const definitionId = event.data.object.definition_id;
  const slug = typeof definitionId === 'string' ? names?.slugById.get(definitionId) : undefined;
  if (slug === undefined) return event.type;
  const verb = event.type.slice(event.type.lastIndexOf('.') + 1);
  return `custom_object.${slug}.${verb}`;
}
