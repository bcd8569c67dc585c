/**
 * The REST operations a pushed mutation stands for (shared/domain/sync/push.service.ts), called
 * in-process through the operation groups' own handlers with the pusher's token: the same route
 * schemas, grants, services, audit and events as a request over HTTP, and the same problem
 * documents when refused. Nothing is reimplemented here; only the request is built.
 */
import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import type { MutationPort, PortAnswer } from '../../shared/domain/sync/push.service.ts';
import { currentRecords } from '../../shared/domain/sync/sync-records.ts';
import type { PushType } from '../../shared/domain/sync/sync-subject.ts';
import { type ApiEvent, header } from '../../shared/http/api-gateway.ts';
import type { OperationGroup } from '../../shared/routes/route-table.ts';
import { groupHandlers } from '../registry.ts';

/** Each synced type's collection, item path parameter and operation group. */
const restOf: Record<PushType, { collection: string; param: string; group: OperationGroup }> = {
  case: { collection: '/api/v2/cases', param: 'case_id', group: 'cases' },
  comment: { collection: '/api/v2/comments', param: 'comment_id', group: 'comments' },
  tour: { collection: '/api/v2/tours', param: 'tour_id', group: 'tours' },
  shift: { collection: '/api/v2/shifts', param: 'shift_id', group: 'shifts' },
  area: { collection: '/api/v2/areas', param: 'area_id', group: 'areas' },
  tag: { collection: '/api/v2/tags', param: 'tag_id', group: 'tags' },
  skill: { collection: '/api/v2/skills', param: 'skill_id', group: 'skills' },
};

/** The context of an in-process call: the handlers read only its deadline and names. */
function innerContext(group: string): Context {
  const deadline = Date.now() + 25_000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: `sync-push-${group}`,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:sync-push-${group}`,
    memoryLimitInMB: '1024',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/sync-push-${group}`,
    logStreamName: 'in-process',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => {},
    fail: () => {},
    succeed: () => {},
  };
}

export function mutationPort(push: ApiEvent, workspaceId: string, readerId: string): MutationPort {
  const call = async (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    type: PushType,
    id: string | undefined,
    body?: unknown,
  ): Promise<PortAnswer> => {
    const rest = restOf[type];
    const template = id ? `${rest.collection}/{${rest.param}}` : rest.collection;
    const rawPath = id ? `${rest.collection}/${id}` : rest.collection;
    const headers: Record<string, string> = {
      authorization: header(push, 'authorization') ?? '',
      accept: 'application/json',
      ...(body !== undefined
        ? { 'content-type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json' }
        : {}),
    };
    const correlation = header(push, 'correlation-id') ?? header(push, 'x-correlation-id');
    if (correlation) headers['correlation-id'] = correlation;
    const routeKey = `${method} ${template}`;
    const event: ApiEvent = {
      version: '2.0',
      routeKey,
      rawPath,
      rawQueryString: '',
      headers,
      ...(id ? { pathParameters: { [rest.param]: id } } : {}),
      requestContext: {
        ...push.requestContext,
        requestId: randomUUID(),
        routeKey,
        http: { ...push.requestContext.http, method, path: rawPath },
      },
      isBase64Encoded: false,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    };
    const { handler } = await groupHandlers[rest.group]();
    const result = await handler(event, innerContext(rest.group));
    const text = typeof result.body === 'string' && result.body.length > 0 ? result.body : undefined;
    return {
      status: result.statusCode,
      body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined,
    };
  };
  return {
    send: ({ method, type, id, body }) => call(method, type, id, body),
    read: (type, id) => call('GET', type, id),
    async current(type, id) {
      return (await currentRecords(workspaceId, readerId, [{ type, id }])).get(`${type}#${id}`);
    },
  };
}
