/**
 * Storage of custom-object definitions, and of their slugs: a guard item per slug (keys.ts
 * `definitionSlug`, holding the definition's id), created, moved and deleted in the definition's
 * own transactions, so two containers cannot take one slug.
 */
import { keys } from '../../data/keys.ts';
import { resourceStore, type StoreScope } from '../../data/resource-store.ts';
import { getRecord, type TableWrite } from '../../data/table.ts';
import { definitionList } from './definition.list.ts';
import type { CustomObjectDefinition } from './definition.schema.ts';

export const definitionStore = resourceStore<CustomObjectDefinition>(
  'custom_object_definition',
  'CO_DEF',
  definitionList,
);

/** The slug guards of one workspace: every call is scoped to it by construction. */
export interface WorkspaceDefinitionSlugs {
  /** The id of the definition that holds the slug, or undefined when it is free. */
  holder(slug: string): Promise<string | undefined>;
  /** Take the slug for the definition (create-if-absent: `already-exists` when it is taken). */
  claimWrite(definition: Pick<CustomObjectDefinition, 'id' | 'slug'>): TableWrite;
  /** Give up a slug the definition holds (fails when its guard is gone: a rename raced). */
  releaseWrite(slug: string): TableWrite;
  /** Remove a slug's guard whether or not it is there (the definition is deleted). */
  discardWrite(slug: string): TableWrite;
}

export const definitionSlugs = {
  of(scope: StoreScope): WorkspaceDefinitionSlugs {
    const workspaceId = typeof scope === 'string' ? scope : scope.workspaceId;
    const key = (slug: string) => keys.definitionSlug(workspaceId, slug);
    return {
      async holder(slug) {
        const guard = await getRecord(key(slug));
        return guard ? String(guard.definition_id) : undefined;
      },
      claimWrite: (definition) => ({
        kind: 'create',
        key: key(definition.slug),
        entity: 'custom_object_slug',
        record: { slug: definition.slug, definition_id: definition.id },
      }),
      releaseWrite: (slug) => ({ kind: 'delete', key: key(slug) }),
      discardWrite: (slug) => ({ kind: 'discard', key: key(slug) }),
    };
  },
};
