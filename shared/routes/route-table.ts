/**
 * THE route table: the single source of truth for the REST surface. CDK builds the API
 * Gateway routes and one Lambda per `group` from it, the local server routes with it, and the
 * OpenAPI document is generated from it. Plain data and zod schemas only: importing it never
 * pulls in handler code. Each group's implementation must cover exactly its operation ids.
 */
import { z } from 'zod';
import {
  AreaIdParams,
  AreaListQuery,
  AreaListSchema,
  AreaSchema,
  CreateAreaSchema,
  UpdateAreaSchema,
} from '../domain/areas/area.schema.ts';
import { AuditLogEntryListSchema, AuditLogListQuery } from '../domain/audit-logs/audit-log.schema.ts';
import {
  CreateTagSchema,
  TagIdParams,
  TagListQuery,
  TagListSchema,
  TagSchema,
  UpdateTagSchema,
} from '../domain/tags/tag.schema.ts';
import type { RouteSpec } from '../http/route-spec.ts';

const HealthSchema = z.object({ status: z.literal('ok') }).meta({ id: 'Health' });

export const routes = [
  {
    operationId: 'platform.health',
    method: 'GET',
    path: '/health',
    group: 'platform',
    summary: 'Liveness check',
    tags: ['Platform'],
    auth: 'none',
    success: { status: 200, description: 'The service answers.', schema: HealthSchema },
  },
  {
    operationId: 'platform.openapi',
    method: 'GET',
    path: '/api/v2/openapi.json',
    group: 'platform',
    summary: 'This OpenAPI 3.1 document',
    tags: ['Platform'],
    auth: 'none',
    success: { status: 200, description: 'The OpenAPI document.' },
  },

  {
    operationId: 'areas.list',
    method: 'GET',
    path: '/api/v2/areas',
    group: 'areas',
    summary: 'List areas',
    tags: ['Areas'],
    auth: 'bearer',
    grants: ['areas:read'],
    query: AreaListQuery,
    success: { status: 200, description: 'A page of areas.', schema: AreaListSchema },
  },
  {
    operationId: 'areas.create',
    method: 'POST',
    path: '/api/v2/areas',
    group: 'areas',
    summary: 'Create an area',
    tags: ['Areas'],
    auth: 'bearer',
    grants: ['areas:update'],
    body: CreateAreaSchema,
    success: { status: 201, description: 'The created area; Location names it.', schema: AreaSchema },
  },
  {
    operationId: 'areas.get',
    method: 'GET',
    path: '/api/v2/areas/{area_id}',
    group: 'areas',
    summary: 'Get an area',
    tags: ['Areas'],
    auth: 'bearer',
    grants: ['areas:read'],
    params: AreaIdParams,
    success: { status: 200, description: 'The area.', schema: AreaSchema },
  },
  {
    operationId: 'areas.update',
    method: 'PATCH',
    path: '/api/v2/areas/{area_id}',
    group: 'areas',
    summary: 'Update an area (JSON Merge Patch)',
    tags: ['Areas'],
    auth: 'bearer',
    grants: ['areas:update'],
    params: AreaIdParams,
    body: UpdateAreaSchema,
    mergePatch: true,
    success: { status: 200, description: 'The updated area.', schema: AreaSchema },
  },
  {
    operationId: 'areas.delete',
    method: 'DELETE',
    path: '/api/v2/areas/{area_id}',
    group: 'areas',
    summary: 'Delete an area',
    tags: ['Areas'],
    auth: 'bearer',
    grants: ['areas:update'],
    params: AreaIdParams,
    success: { status: 204, description: 'Deleted.' },
  },

  {
    operationId: 'tags.list',
    method: 'GET',
    path: '/api/v2/tags',
    group: 'tags',
    summary: 'List tags',
    tags: ['Tags'],
    auth: 'bearer',
    grants: ['tags:read'],
    query: TagListQuery,
    success: { status: 200, description: 'A page of tags.', schema: TagListSchema },
  },
  {
    operationId: 'tags.create',
    method: 'POST',
    path: '/api/v2/tags',
    group: 'tags',
    summary: 'Create a tag',
    tags: ['Tags'],
    auth: 'bearer',
    grants: ['tags:update'],
    body: CreateTagSchema,
    success: { status: 201, description: 'The created tag; Location names it.', schema: TagSchema },
  },
  {
    operationId: 'tags.get',
    method: 'GET',
    path: '/api/v2/tags/{tag_id}',
    group: 'tags',
    summary: 'Get a tag',
    tags: ['Tags'],
    auth: 'bearer',
    grants: ['tags:read'],
    params: TagIdParams,
    success: { status: 200, description: 'The tag.', schema: TagSchema },
  },
  {
    operationId: 'tags.update',
    method: 'PATCH',
    path: '/api/v2/tags/{tag_id}',
    group: 'tags',
    summary: 'Update a tag (JSON Merge Patch)',
    tags: ['Tags'],
    auth: 'bearer',
    grants: ['tags:update'],
    params: TagIdParams,
    body: UpdateTagSchema,
    mergePatch: true,
    success: { status: 200, description: 'The updated tag.', schema: TagSchema },
  },
  {
    operationId: 'tags.delete',
    method: 'DELETE',
    path: '/api/v2/tags/{tag_id}',
    group: 'tags',
    summary: 'Delete a tag',
    tags: ['Tags'],
    auth: 'bearer',
    grants: ['tags:update'],
    params: TagIdParams,
    success: { status: 204, description: 'Deleted.' },
  },

  {
    operationId: 'audit-logs.list',
    method: 'GET',
    path: '/api/v2/audit-logs',
    group: 'audit-logs',
    summary: 'List audit log entries, newest first',
    tags: ['Audit logs'],
    auth: 'bearer',
    grants: ['audit-logs:read'],
    query: AuditLogListQuery,
    success: { status: 200, description: 'A page of audit entries.', schema: AuditLogEntryListSchema },
  },
] as const satisfies readonly RouteSpec[];

export type Route = (typeof routes)[number];
export type OperationId = Route['operationId'];
export type OperationGroup = Route['group'];
export type RoutesOf<G extends OperationGroup> = Extract<Route, { group: G }>;

export function routesOf<G extends OperationGroup>(group: G): RoutesOf<G>[] {
  return routes.filter((route): route is RoutesOf<G> => route.group === group);
}

export const operationGroups = [...new Set(routes.map((route) => route.group))] as OperationGroup[];
