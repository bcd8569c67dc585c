/**
 * Area rules: creation, merge-patch edits (description and waiting_time clearable with null),
 * deletion, and sorted, paged listing. Every change emits area.created / area.updated /
 * area.deleted. A change of waiting_time (set on create, changed or cleared on update) is an
 * area.updated like any other for webhooks and the audit log (an event name never says which
 * property changed); beside it, in the same transaction, the internal area.waiting_time_updated
 * (never delivered, never audited) feeds the event stream's AREA_WAITING_TIME_UPDATED:V1 with the
 * old value in previous_attributes.
 */
import type { z } from 'zod';
import type { Actor } from '../../auth/actor.ts';
import { outboxWrite } from '../../data/outbox.ts';
import type { TableWrite } from '../../data/table.ts';
import { domainEvent, previousAttributes } from '../../events/domain-event.ts';
import { defaultPageSize, pageOf } from '../../schema/list.ts';
import { newRecordId } from '../record-id.ts';
import { deleteExisting, mergePatch, updateVersioned } from '../versioned-write.ts';
import type { Area, AreaListQuery, CreateAreaSchema, UpdateAreaSchema } from './area.schema.ts';
import { areaStore } from './area.store.ts';
import { AreaError } from './area-error.ts';

const resource = (id: string) => ({ type: 'area', id });

/** A page through the list indexes (data/lists.ts); default order created_at ascending, ties by id. */
export async function listAreas(ctx: Actor, query: z.output<typeof AreaListQuery>) {
  const { items, total } = await areaStore.of(ctx).page({
    order: query.sort?.length ? query.sort : [{ field: 'created_at', direction: 'asc' }],
    page: query.page ?? 0,
    size: query.size ?? defaultPageSize,
  });
  return { items, page: pageOf(total, query) };
}

export async function getArea(ctx: Actor, id: string): Promise<Area> {
  const area = await areaStore.of(ctx).get(id);
  if (!area) throw new AreaError('not-found');
  return area;
}

export async function createArea(ctx: Actor, input: z.output<typeof CreateAreaSchema>): Promise<Area> {
  const now = new Date().toISOString();
  const area: Area = {
    id: newRecordId(),
    name: input.name,
    ...(input.description !== undefined ? { description: input.description } : {}),
    color: input.color,
    zip_ranges: input.zip_ranges ?? [],
    ...(input.waiting_time !== undefined ? { waiting_time: input.waiting_time } : {}),
    lock_version: 0,
    created_at: now,
    updated_at: now,
  };
  await areaStore
    .of(ctx)
    .create(
      area,
      domainEvent(ctx, 'area.created', resource(area.id), area),
      waitingTimeEvents(ctx, undefined, area),
    );
  return area;
}

export async function updateArea(
  ctx: Actor,
  id: string,
  patch: z.output<typeof UpdateAreaSchema>,
): Promise<Area> {
  const { after } = await updateVersioned<Area>({
    key: `area:${ctx.workspaceId}:${id}`,
    load: () => areaStore.of(ctx).get(id),
    expectedVersion: patch.lock_version,
    apply: (current) => mergePatch(current, patch),
    save: (next, current) =>
      areaStore
        .of(ctx)
        .replace(
          next,
          current,
          domainEvent(ctx, 'area.updated', resource(id), next, previousAttributes(current, next)),
          waitingTimeEvents(ctx, current, next),
        ),
  });
  return after;
}

/** The stream's internal area.waiting_time_updated, as one more outbox write, when waiting_time differs. */
function waitingTimeEvents(ctx: Actor, before: Area | undefined, after: Area): TableWrite[] {
  if (before?.waiting_time === after.waiting_time) return [];
  const event = domainEvent(ctx, 'area.waiting_time_updated', resource(after.id), after, {
    waiting_time: before?.waiting_time ?? null,
  });
  return [outboxWrite(event)];
}

export async function deleteArea(ctx: Actor, id: string): Promise<void> {
  await deleteExisting<Area>({
    load: () => areaStore.of(ctx).get(id),
    remove: (current) =>
      areaStore.of(ctx).remove(current, domainEvent(ctx, 'area.deleted', resource(id), current)),
  });
}
