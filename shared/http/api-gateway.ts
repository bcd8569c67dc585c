/**
 * The transport contract: API Gateway HTTP API payload format 2.0. Lambda receives it from
 * API Gateway; the local server and the Fargate container build the same shape, so handler
 * code is identical everywhere.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';

export type ApiEvent = APIGatewayProxyEventV2;
export type ApiResult = APIGatewayProxyStructuredResultV2 & {
  statusCode: number;
  headers: Record<string, string>;
};
export type ApiHandler = (event: ApiEvent, context: Context) => Promise<ApiResult>;

/** Header lookup that ignores case (API Gateway lower-cases, other callers may not). */
export function header(event: ApiEvent, name: string): string | undefined {
  const headers = event.headers ?? {};
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === wanted) return value;
  }
  return undefined;
}

export function bodyText(event: ApiEvent): string | undefined {
  if (event.body === undefined || event.body === null) return undefined;
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
}
