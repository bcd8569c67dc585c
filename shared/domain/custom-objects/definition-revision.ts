/**
 * The workspace's model revision, moved by every change of a definition or relation (GraphQL
 * schema caches read it). Apart from definition.service.ts so that the relation purge, which
 * the stream processor runs, does not load the definition rules and their schemas.
 */
import { keys } from '../../data/keys.ts';
import type { TableWrite } from '../../data/table.ts';

/** The write that moves the workspace's model revision by one. */
export function revisionWrite(workspaceId: string): TableWrite {
  return {
    kind: 'add',
    key: keys.customObjectRevision(workspaceId),
    entity: 'custom_object_revision',
    attribute: 'revision',
    by: 1,
  };
}
