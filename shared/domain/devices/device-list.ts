/**
 * GET /api/v2/devices: how each query is served so that a page costs about its page, or the
 * devices its filters select, never the workspace's fleet (shared/data/README.md,
 * "Lists", the DEVICE rows, has the costs). Filters combine with AND.
 *
 * - `kind` is the segment: each kind is a partition of its own, and a counter.
 * - every sort key is an index (kind: the segments one after another); further keys in memory.
 * - `model` (a case-insensitive substring): the model counters name the distinct models in use;
 *   the partitions of those containing the text (the model facet) are merged, and their
 *   counters make the total. Distinct models are few where devices are many.
 * - `has_location=true` is counted by the `located` counter; `false` is checked on the entries.
 * - `updated_from`/`updated_to` are a key range of the updated_at index.
 * - `search` starts from the search tokens (device.list.ts `deviceTokens`): it costs its matches.
 * - the bounding box starts from the geographic index of the devices' states: one key range per
 *   geohash prefix covering the box (geo-cells.ts), each entry checked against the box exactly.
 *   It costs the devices located in the covering cells, not the fleet.
 * Search and the box give candidate devices; their items are read (BatchGetItem per 100), the
 * other filters checked on them, ordered in memory and counted.
 */
import type { z } from 'zod';
import type { Actor } from '../../auth/actor.ts';
import { searchWords, workspaceScope } from '../../data/list-patterns.ts';
import {
  comparatorOf,
  countersOf,
  type ListOrder,
  type ListRequest,
  searchMatches,
} from '../../data/list-read.ts';
import type { StoredRecord } from '../../data/table.ts';
import { queryFieldError } from '../../schema/field-error.ts';
import { defaultPageSize, pageOf } from '../../schema/list.ts';
import { deviceList, deviceModelFacetValue } from './device.list.ts';
import type { Device, DeviceListQuery, StoredDevice } from './device.schema.ts';
import { withStates } from './device.service.ts';
import { deviceStore } from './device.store.ts';
import { DeviceError } from './device-error.ts';
import { deviceStateStore } from './device-state.store.ts';
import { type Box, coveringPrefixes, inBox } from './geo-cells.ts';

export const defaultDeviceOrder: readonly ListOrder[] = [{ field: 'natural_id', direction: 'asc' }];

type Query = z.output<typeof DeviceListQuery>;

const boxParams = ['min_lat', 'min_lon', 'max_lat', 'max_lon'] as const;

/** The bounding box asked for: all four values or none (422 naming the missing ones); min_lat ≤ max_lat. */
export function boxOf(query: Query): Box | undefined {
  const given = boxParams.filter((name) => query[name] !== undefined);
  if (given.length === 0) return undefined;
  if (given.length < boxParams.length) {
    const missing = boxParams.filter((name) => query[name] === undefined);
    throw new DeviceError('invalid', {
      fields: missing.map((name) =>
        queryFieldError(
          name,
          'field-required',
          `is required with ${given.join(', ')}: a bounding box needs min_lat, min_lon, max_lat and max_lon`,
        ),
      ),
    });
  }
  const box = {
    minLat: Number(query.min_lat),
    minLon: Number(query.min_lon),
    maxLat: Number(query.max_lat),
    maxLon: Number(query.max_lon),
  };
  if (box.minLat > box.maxLat) {
    throw new DeviceError('invalid', {
      fields: [
        queryFieldError('min_lat', 'field-invalid', `must not be greater than max_lat (${box.maxLat})`),
      ],
    });
  }
  return box;
}

export async function listDevices(
  ctx: Actor,
  query: Query,
): Promise<{ items: Device[]; page: ReturnType<typeof pageOf> }> {
  const box = boxOf(query);
  const include = query.include?.includes('current_state') ?? false;
  const request = { page: query.page ?? 0, size: query.size ?? defaultPageSize };
  const order = query.sort?.length ? query.sort : defaultDeviceOrder;

  if (box || searchWords(query.search ?? '').length > 0) {
    const { items, total } = await candidatesPage(ctx.workspaceId, query, box, order, request);
    return { items: await withStates(ctx.workspaceId, items, include), page: pageOf(total, request) };
  }

  const plan = await indexedPlan(ctx.workspaceId, query, order);
  if (!plan) return { items: [], page: pageOf(0, request) };
  const { items, total } = await deviceStore.of(ctx).page({ ...plan, ...request });
  return { items: await withStates(ctx.workspaceId, items, include), page: pageOf(total, request) };
}

type Entry = StoredRecord & { updated_at?: string; has_location?: number };

/** How an index walk serves the query; undefined when it can match nothing (no model contains the text). */
async function indexedPlan(
  workspaceId: string,
  query: Query,
  order: readonly ListOrder[],
): Promise<Omit<ListRequest, 'scope' | 'page' | 'size'> | undefined> {
  const models = query.model === undefined ? undefined : await modelsContaining(workspaceId, query.model);
  if (models && models.length === 0) return undefined;

  const checks: Array<(entry: Entry) => boolean> = [];
  const { updated_from: updatedFrom, updated_to: updatedTo, has_location: located } = query;
  const updatedRange = !models && (updatedFrom !== undefined || updatedTo !== undefined);
  if (!updatedRange) {
    if (updatedFrom) checks.push((entry) => String(entry.updated_at) >= updatedFrom);
    if (updatedTo) checks.push((entry) => String(entry.updated_at) < updatedTo);
  }
  // `true` alone is the `located` counter; otherwise it is checked on the entries.
  const countedLocated = located === true && checks.length === 0 && !models && !updatedRange;
  if (located !== undefined && !countedLocated) {
    checks.push((entry) => (Number(entry.has_location ?? 0) === 1) === located);
  }
  return {
    order,
    ...(query.kind ? { segments: [query.kind] } : {}),
    ...(models ? { facet: { name: 'model', value: models } } : {}),
    ...(updatedRange
      ? {
          walk: 'updated_at',
          range: {
            ...(updatedFrom ? { from: updatedFrom } : {}),
            ...(updatedTo ? { to: new Date(Date.parse(updatedTo) - 1).toISOString() } : {}),
          },
        }
      : {}),
    ...(countedLocated
      ? { countedBy: 'located', where: (entry: Entry) => Number(entry.has_location ?? 0) === 1 }
      : {}),
    ...(checks.length > 0 ? { where: (entry: Entry) => checks.every((check) => check(entry)) } : {}),
  };
}

/** The folded models in use (their facet counters above zero) that contain `text`, folded. */
async function modelsContaining(workspaceId: string, text: string): Promise<string[]> {
  const needle = deviceModelFacetValue(text) ?? '';
  const counters = await countersOf(deviceList, workspaceScope(workspaceId), 'model=');
  const values = counters
    .filter((counter) => counter.count > 0)
    .map((counter) => counter.name.slice('model='.length))
    .filter((model) => model.includes(needle));
  return [...new Set(values)];
}

/** Search and bounding box: candidate ids, their items, every other filter, order, page, total. */
async function candidatesPage(
  workspaceId: string,
  query: Query,
  box: Box | undefined,
  order: readonly ListOrder[],
  request: { page: number; size: number },
): Promise<{ items: StoredDevice[]; total: number }> {
  let ids: Set<string> | undefined;
  if (box) {
    const located = await deviceStateStore.of(workspaceId).locatedIn(coveringPrefixes(box));
    ids = new Set(
      located
        .filter((device) => inBox(device.latitude, device.longitude, box))
        .map((device) => device.device_id),
    );
  }
  if (query.search !== undefined) {
    const words = searchWords(query.search);
    if (words.length > 0) {
      const matches = await searchMatches(deviceList, workspaceScope(workspaceId), words);
      const found = new Set(matches.map((record) => String(record.id)));
      ids = ids ? new Set([...ids].filter((id) => found.has(id))) : found;
    }
  }
  const candidates = (await deviceStore.of(workspaceId).getMany([...(ids ?? [])])).filter(
    (item): item is StoredDevice => item !== undefined,
  );
  const needle = query.model === undefined ? undefined : (deviceModelFacetValue(query.model) ?? '');
  const matching = candidates.filter(
    (device) =>
      (query.kind === undefined || device.kind === query.kind) &&
      (needle === undefined || (deviceModelFacetValue(device.device_model) ?? '').includes(needle)) &&
      (query.has_location === undefined || (device.has_location === true) === query.has_location) &&
      (query.updated_from === undefined || device.updated_at >= query.updated_from) &&
      (query.updated_to === undefined || device.updated_at < query.updated_to),
  );
  matching.sort(comparatorOf(deviceList, order) as unknown as (a: StoredDevice, b: StoredDevice) => number);
  const start = request.page * request.size;
  return { items: matching.slice(start, start + request.size), total: matching.length };
}
