/**
 * The stores of the workspace resources. Each is the generic resource store bound to an
 * entity name, its collection partition (keys.ts) and its list declaration (lists.ts).
 */
import type { Area } from '../domain/areas/area.schema.ts';
import type { Case } from '../domain/cases/case.schema.ts';
import type { CustomObjectDefinition } from '../domain/custom-objects/definition.schema.ts';
import type { StoredRelation } from '../domain/custom-objects/relation.schema.ts';
import type { StoredDevice } from '../domain/devices/device.schema.ts';
import type { Skill } from '../domain/skills/skill.schema.ts';
import type { StoredTag } from '../domain/tags/tag.schema.ts';
import type { Tour } from '../domain/tours/tour.schema.ts';
import type { StoredVehicle } from '../domain/vehicles/vehicle.schema.ts';
import type { StoredWebhookEndpoint } from '../domain/webhooks/webhook-endpoint.schema.ts';
import {
  areaList,
  caseList,
  definitionList,
  deviceList,
  skillList,
  tagList,
  tourList,
  vehicleList,
  webhookEndpointList,
} from './lists.ts';
import { resourceStore } from './resource-store.ts';

export const areaStore = resourceStore<Area>('area', 'AREA', areaList);
/** Tag items hold no usage_count: that is a counter of its own (tag-usage.store.ts). */
export const tagStore = resourceStore<StoredTag>('tag', 'TAG', tagList);
export const skillStore = resourceStore<Skill>('skill', 'SKILL', skillList);
/** Endpoint items hold their signing secret: services strip it from every representation. */
export const webhookEndpointStore = resourceStore<StoredWebhookEndpoint>(
  'webhook_endpoint',
  'WEBHOOK',
  webhookEndpointList,
);
/** Vehicle items hold no location: the latest report is an item of its own (vehicle-location.store.ts). */
export const vehicleStore = resourceStore<StoredVehicle>('vehicle', 'VEHICLE', vehicleList);
export const tourStore = resourceStore<Tour>('tour', 'TOUR', tourList);
/** Cases are indexed from their first write: no backfill reads their (unbounded) collection. */
export const caseStore = resourceStore<Case>('case', 'CASE', caseList);
/** Device items hold no telemetry and no secret: both live in the device's state item (device-state.store.ts). */
export const deviceStore = resourceStore<StoredDevice>('device', 'DEVICE', deviceList);
/** Custom-object definitions; their slugs are guard items of their own (keys.ts `definitionSlug`). */
export const definitionStore = resourceStore<CustomObjectDefinition>(
  'custom_object_definition',
  'CO_DEF',
  definitionList,
);
/**
 * Custom-object relations: a workspace holds tens to hundreds (at most 500), read whole by the
 * GraphQL schema and the relation list of a definition; associations live in their own partitions
 * and on the instances (instance.store.ts `linkAttribute`).
 */
export const relationStore = resourceStore<StoredRelation>('custom_object_relation', 'CO_REL');
