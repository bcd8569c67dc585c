/**
 * The table's key design, in one place (see README.md beside this file). The workspace
 * (tenant) id leads every partition key of workspace data, so a key built from another
 * workspace's id can never address this workspace's items: isolation by construction.
 * Global lookup items (realms, OIDC clients) are keyed by the name that is looked up.
 */
export type WorkspaceId = string;

const tenant = (workspaceId: WorkspaceId) => `T#${workspaceId}`;

/** Partition of one collection of a workspace: all its items of one entity type. */
export function collectionPk(workspaceId: WorkspaceId, entity: CollectionName): string {
  return `${tenant(workspaceId)}#${entity}`;
}

export type CollectionName = 'AREA' | 'TAG' | 'PRINCIPAL' | 'EVENT' | 'AUDIT';

export const keys = {
  workspace: (workspaceId: WorkspaceId) => ({ pk: tenant(workspaceId), sk: 'WORKSPACE' }),
  principal: (workspaceId: WorkspaceId, principalId: string) => ({
    pk: collectionPk(workspaceId, 'PRINCIPAL'),
    sk: principalId,
  }),
  area: (workspaceId: WorkspaceId, areaId: string) => ({ pk: collectionPk(workspaceId, 'AREA'), sk: areaId }),
  tag: (workspaceId: WorkspaceId, tagId: string) => ({ pk: collectionPk(workspaceId, 'TAG'), sk: tagId }),
  /** Outbox: one item per domain event, sort key = the UUIDv7 event id, so time-ordered. */
  event: (workspaceId: WorkspaceId, eventId: string) => ({
    pk: collectionPk(workspaceId, 'EVENT'),
    sk: eventId,
  }),
  /** Audit entries ordered by occurrence; the event id makes equal timestamps unique. */
  auditEntry: (workspaceId: WorkspaceId, occurredAt: string, eventId: string) => ({
    pk: collectionPk(workspaceId, 'AUDIT'),
    sk: `${occurredAt}#${eventId}`,
  }),
  realm: (realm: string) => ({ pk: `REALM#${realm}`, sk: 'REALM' }),
  /** OIDC clients are unique per realm, as in Keycloak. */
  client: (realm: string, clientId: string) => ({ pk: `REALM#${realm}#CLIENT`, sk: clientId }),
} as const;

/** Attributes every stored item carries besides its own fields. */
export const itemMeta = ['pk', 'sk', 'entity', 'expires_at'] as const;
