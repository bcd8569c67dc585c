/**
 * Custom-object instances in a scope (API-DECISIONS.md: "the workspace's custom-object instances
 * their grants read"): every instance of a type whose access lets the user read it (instance
 * grants, and for PROTECTED types the permission matrix, as REST and GraphQL decide it:
 * custom-objects/instance-access.ts), as REST reads it (`{schema, data, display_value,
 * lock_version}`). Read strongly consistent, like every record a pull sends.
 */
import type { Principal } from '../../auth/actor.ts';
import { instancePartition } from '../../data/keys.ts';
import { getRecords, queryItems, recordOf } from '../../data/table.ts';
import type { CustomObjectDefinition } from '../custom-objects/definition.schema.ts';
import { definitionStore } from '../custom-objects/definition.store.ts';
import { toInstance } from '../custom-objects/instance.service.ts';
import { instanceOf, instanceStore } from '../custom-objects/instance.store.ts';
import { instanceAccess } from '../custom-objects/instance-access.ts';
import type { SyncRecord } from './sync-records.ts';

/** The definitions of a pull and whether the reader reads their instances (read once per pull). */
export class ReadableTypes {
  private readonly known = new Map<string, Promise<{ definition?: CustomObjectDefinition; read: boolean }>>();
  private readonly workspaceId: string;
  private readonly principal: Pick<Principal, 'roles' | 'grants'>;

  constructor(workspaceId: string, principal: Pick<Principal, 'roles' | 'grants'>) {
    this.workspaceId = workspaceId;
    this.principal = principal;
  }

  of(definitionId: string): Promise<{ definition?: CustomObjectDefinition; read: boolean }> {
    let found = this.known.get(definitionId);
    if (!found) {
      found = (async () => {
        const definition = await definitionStore.of(this.workspaceId).get(definitionId);
        if (!definition) return { read: false };
        const access = await instanceAccess(this.principal, this.workspaceId, definition);
        return { definition, read: access.read };
      })();
      this.known.set(definitionId, found);
    }
    return found;
  }

  /** Every definition of the workspace whose instances the reader reads, ordered by id. */
  async readable(): Promise<CustomObjectDefinition[]> {
    const all = (await definitionStore.of(this.workspaceId).list()).sort((a, b) => (a.id < b.id ? -1 : 1));
    const checked = await Promise.all(all.map((definition) => this.of(definition.id)));
    return all.filter((_, index) => checked[index]?.read);
  }
}

/** The instances as they are now, by instance id, and whether the reader reads their type. */
export async function currentInstances(
  workspaceId: string,
  types: ReadableTypes,
  wanted: ReadonlyArray<{ id: string; parent?: string | undefined }>,
): Promise<Map<string, { record: SyncRecord; read: boolean }>> {
  const refs = wanted.filter((ref): ref is { id: string; parent: string } => ref.parent !== undefined);
  const store = instanceStore.of(workspaceId);
  const items = await getRecords(
    refs.map((ref) => store.key(ref.parent, ref.id)),
    { consistent: true },
  );
  const found = new Map<string, { record: SyncRecord; read: boolean }>();
  await Promise.all(
    refs.map(async (ref, index) => {
      const item = items[index];
      const type = await types.of(ref.parent);
      if (item && type.definition)
        found.set(ref.id, { record: present(type.definition, item), read: type.read });
    }),
  );
  return found;
}

function present(definition: CustomObjectDefinition, item: Record<string, unknown>): SyncRecord {
  const instance = toInstance(definition, instanceOf(item));
  return { ...instance, id: String((instance.data as { id: string }).id) } as unknown as SyncRecord;
}

/** The instances of a type after `afterId`, in id order. */
export async function* instancesOf(
  workspaceId: string,
  definition: CustomObjectDefinition,
  afterId: string | undefined,
): AsyncGenerator<SyncRecord> {
  for await (const item of queryItems({
    partitionKey: { name: 'pk', value: instancePartition(workspaceId, definition.id) },
    ...(afterId ? { atLeast: afterId } : {}),
    pageSize: () => 500,
  })) {
    if (afterId && String(item.sk) <= afterId) continue;
    yield present(definition, recordOf(item));
  }
}
