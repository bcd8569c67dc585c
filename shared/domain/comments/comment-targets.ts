/**
 * What a comment can be on, and whether the caller may see it. A target is a record of the
 * caller's workspace that the caller can read:
 *
 * - `core:case` (cases:read; field workers only the cases assigned to them), `core:tour`
 *   (tours:read; field workers only their own), `core:vehicle` (vehicles:read), `core:device`
 *   (devices:read), `core:area` (areas:read), `core:user` (users:read, or the caller's own user);
 * - `custom_object:<slug>`: an instance of that definition, read through its access rules
 *   (instance-access.ts: the grant, and for PROTECTED types the permission matrix).
 *
 * A record the caller may not read is answered exactly like a missing one, so its existence is
 * not disclosed: 404 where the target is named in the path or query, 422 at `#/target_id` where
 * it is named in a body. A target type naming no definition is 422 at `#/target_type`.
 */

import type { Actor, Principal } from '../../auth/actor.ts';
import type { Grant } from '../../auth/grants.ts';
import type { StoredRecord } from '../../data/table.ts';
import { type FieldError, queryFieldError } from '../../schema/field-error.ts';
import { areaStore } from '../areas/area.store.ts';
import type { Case } from '../cases/case.schema.ts';
import { caseStore } from '../cases/case.store.ts';
import { canSeeCase } from '../cases/case-visibility.ts';
import type { CustomObjectDefinition } from '../custom-objects/definition.schema.ts';
import { findDefinition } from '../custom-objects/definition.service.ts';
import { instanceStore } from '../custom-objects/instance.store.ts';
import { instanceAccess } from '../custom-objects/instance-access.ts';
import { deviceStore } from '../devices/device.store.ts';
import { driverScopeOf } from '../tours/tour.service.ts';
import { tourStore } from '../tours/tour.store.ts';
import { principalStore } from '../users/user.store.ts';
import { vehicleStore } from '../vehicles/vehicle.store.ts';
import type { CoreTargetType } from './comment.schema.ts';
import { CommentError } from './comment-error.ts';

export interface CommentTarget {
  type: string;
  id: string;
  /** `<type>#<id>`: the key of the target's comment partitions, counters and markers. */
  key: string;
  /** The case itself, for comments on cases (the event stream sends it as caseData). */
  caseRecord?: Case;
}

/** A workspace's records of a kind by id, in the order asked (its store's getMany). */
type RecordsReader = (workspaceId: string, ids: readonly string[]) => Promise<Array<object | undefined>>;

/** How a target type is read: a grant, its records, and who may see which record. */
interface TargetKind {
  readable: (principal: Principal) => boolean;
  read: RecordsReader;
  visible: (principal: Principal, record: StoredRecord) => boolean;
}

const always = () => true;
const holds = (grant: Grant) => (principal: Principal) => principal.grants.has(grant);

const coreKinds: Record<CoreTargetType, TargetKind> = {
  case: {
    readable: holds('cases:read'),
    read: (ws, ids) => caseStore.of(ws).getMany(ids),
    visible: (principal, record) => canSeeCase(principal, record as { assignee_id?: string }),
  },
  tour: {
    readable: holds('tours:read'),
    read: (ws, ids) => tourStore.of(ws).getMany(ids),
    visible: (principal, record) => {
      const scope = driverScopeOf(principal);
      return scope === undefined || record.driver_id === scope;
    },
  },
  vehicle: {
    readable: holds('vehicles:read'),
    read: (ws, ids) => vehicleStore.of(ws).getMany(ids),
    visible: always,
  },
  device: {
    readable: holds('devices:read'),
    read: (ws, ids) => deviceStore.of(ws).getMany(ids),
    visible: always,
  },
  area: { readable: holds('areas:read'), read: (ws, ids) => areaStore.of(ws).getMany(ids), visible: always },
  user: {
    // Everyone may discuss their own user record; others' need users:read.
    readable: always,
    read: (ws, ids) => principalStore.of(ws).getMany(ids),
    visible: (principal, record) =>
      record.kind === 'user' && (principal.grants.has('users:read') || record.id === principal.id),
  },
};

/** A target type resolved for the caller's workspace: how its records are read. */
interface ResolvedType {
  type: string;
  read: (ids: readonly string[]) => Promise<Array<StoredRecord | undefined>>;
  visible: (record: StoredRecord) => boolean;
  isCase: boolean;
}

/** The target type, or undefined when it names no definition of the workspace. */
async function resolveType(ctx: Actor, type: string): Promise<ResolvedType | undefined> {
  const [family, name = ''] = type.split(':');
  if (family === 'core') {
    const kind = coreKinds[name as CoreTargetType];
    if (!kind) return undefined;
    const readable = kind.readable(ctx.principal);
    return {
      type,
      read: async (ids) =>
        readable
          ? ((await kind.read(ctx.workspaceId, ids)) as Array<StoredRecord | undefined>)
          : ids.map(() => undefined),
      visible: (record) => kind.visible(ctx.principal, record),
      isCase: name === 'case',
    };
  }
  const definition: CustomObjectDefinition | undefined = await findDefinition(ctx.workspaceId, name);
  if (!definition) return undefined;
  const access = await instanceAccess(ctx.principal, ctx.workspaceId, definition);
  return {
    type,
    read: (ids) =>
      access.read
        ? instanceStore.of(ctx).getMany(ids.map((id) => ({ definitionId: definition.id, id })))
        : Promise.resolve(ids.map(() => undefined)),
    visible: always,
    isCase: false,
  };
}

export type TargetSource = 'body' | 'query';

function unknownType(type: string, source: TargetSource): FieldError {
  const detail = type.startsWith('custom_object:')
    ? `no custom-object definition of this workspace has the slug ${type.slice('custom_object:'.length)}`
    : `unknown target type ${type}`;
  return source === 'query'
    ? queryFieldError('target_type', 'field-invalid', detail)
    : { type: 'field-invalid', pointer: '#/target_type', detail };
}

/**
 * The target, if it exists in the workspace and the caller may read it; otherwise 422 (type
 * unknown, or a body naming a record that is not there for the caller) or 404 (path or query).
 */
export async function requireTarget(
  ctx: Actor,
  type: string,
  rawId: string,
  source: TargetSource,
): Promise<CommentTarget> {
  const resolved = await resolveType(ctx, type);
  if (!resolved) throw new CommentError('invalid', { fields: [unknownType(type, source)] });
  const id = rawId.toLowerCase();
  const [record] = await resolved.read([id]);
  if (!record || !resolved.visible(record)) {
    if (source === 'query') {
      throw new CommentError('not-found', { detail: `No ${type} record with this id exists.` });
    }
    throw new CommentError('invalid', {
      fields: [
        {
          type: 'field-invalid',
          pointer: '#/target_id',
          detail: `no ${type} record with this id exists in the workspace`,
        },
      ],
    });
  }
  return {
    type,
    id,
    key: `${type}#${id}`,
    ...(resolved.isCase ? { caseRecord: record as unknown as Case } : {}),
  };
}

/** The target of a stored comment, if the caller may still read it (else the comment is not theirs to see). */
export async function readableTarget(
  ctx: Actor,
  type: string,
  id: string,
): Promise<CommentTarget | undefined> {
  const resolved = await resolveType(ctx, type);
  if (!resolved) return undefined;
  const [record] = await resolved.read([id]);
  if (!record || !resolved.visible(record)) return undefined;
  return {
    type,
    id,
    key: `${type}#${id}`,
    ...(resolved.isCase ? { caseRecord: record as unknown as Case } : {}),
  };
}

/**
 * The targets among `ids` that exist and that the caller may read, in the order asked, each
 * once: one BatchGetItem per 100 records (and, for a custom-object type, its definition and matrix).
 */
export async function readableTargets(
  ctx: Actor,
  type: string,
  ids: readonly string[],
): Promise<CommentTarget[]> {
  const resolved = await resolveType(ctx, type);
  if (!resolved) throw new CommentError('invalid', { fields: [unknownType(type, 'query')] });
  const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
  const records = await resolved.read(unique);
  return unique.flatMap((id, index) => {
    const record = records[index];
    return record && resolved.visible(record) ? [{ type, id, key: `${type}#${id}` }] : [];
  });
}
