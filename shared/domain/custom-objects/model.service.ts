/**
 * The workspace's custom-object model as a whole: its revision (moved by every definition or
 * relation change, in that change's transaction) and every definition and relation, as the
 * GraphQL schema of the workspace is built from them (shared/graphql/schema-cache.ts caches the
 * model per revision). Relations whose definitions are gone are returned too: the schema model
 * leaves them out.
 */
import type { StoreScope } from '../../data/resource-store.ts';
import type { CustomObjectDefinition } from './definition.schema.ts';
import { definitionStore } from './definition.store.ts';
import { currentRevision } from './model-revision.store.ts';
import type { StoredRelation } from './relation.schema.ts';
import { relationStore } from './relation.store.ts';

const workspaceOf = (scope: StoreScope) => (typeof scope === 'string' ? scope : scope.workspaceId);

/** The model's revision now (one strongly consistent GetItem; 0 before any change). */
export function modelRevision(scope: StoreScope): Promise<number> {
  return currentRevision(workspaceOf(scope));
}

/** Every definition and relation of the workspace (one Query each). */
export async function modelRecords(
  scope: StoreScope,
): Promise<{ definitions: CustomObjectDefinition[]; relations: StoredRelation[] }> {
  const [definitions, relations] = await Promise.all([
    definitionStore.of(scope).list(),
    relationStore.of(scope).list(),
  ]);
  return { definitions, relations };
}
