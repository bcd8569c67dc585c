/**
 * Storage of the workspace's custom-object model revision (keys.ts `customObjectRevision`), moved
 * by every change of a definition or relation in that change's transaction (GraphQL schema caches
 * read it). Apart from definition.service.ts so that the relation purge, which the stream
 * processor runs, does not load the definition rules and their schemas.
 */
import { keys } from '../../data/keys.ts';
import { getRecord, type TableWrite } from '../../data/table.ts';

/** The write that moves the workspace's model revision by one. */
export function revisionWrite(workspaceId: string): TableWrite {
  return {
    kind: 'add',
    key: keys.customObjectRevision(workspaceId),
    entity: 'custom_object_revision',
    attribute: 'revision',
    by: 1,
    // Every definition's and relation's change moves it: off their transactions (data/tally.ts).
    tally: true,
  };
}

/** The workspace's model revision now (one strongly consistent GetItem; 0 before any change). */
export async function currentRevision(workspaceId: string): Promise<number> {
  const stored = await getRecord(keys.customObjectRevision(workspaceId), { consistent: true });
  return Number(stored?.revision ?? 0);
}
