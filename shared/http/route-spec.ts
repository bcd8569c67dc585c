/**
 * The shape of one entry of the route table. Plain data plus zod schemas, so the CDK app, the
 * local server and the OpenAPI generator can all read the table without importing handler code.
 */
import type { z } from 'zod';
import type { Grant } from '../auth/grants.ts';
import type { ApiTag } from '../routes/api-tags.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteSpec {
  /** Stable id `<group>.<action>`, used in routing, logs and the OpenAPI document. */
  readonly operationId: string;
  readonly method: HttpMethod;
  /** API Gateway style template: `/api/v2/areas/{area_id}`. */
  readonly path: string;
  /** The operation group: one Lambda function per group (functions/<group>/handler.ts). */
  readonly group: string;
  readonly summary: string;
  /**
   * What the operation does, for the people who integrate it: effects, rules, defaults, what
   * each error means here. The OpenAPI document adds what the route itself states (grants, sort
   * keys, filters, the lock_version rule), so those need not be repeated.
   */
  readonly description: string;
  /** Published with the operation; a test checks each against the route's own schemas. */
  readonly examples: RouteExamples;
  readonly tags: readonly ApiTag[];
  /**
   * `false` keeps the route out of the OpenAPI document: pages for people (the reference page
   * and its assets), not operations for clients. Served like any other route.
   */
  readonly published?: false;
  /**
   * `bearer`: a verified workspace access token is required; `admin`: a token of the admin
   * realm (the `/admin-v1` control plane: no workspace, no grants); `none`: public (health, OpenAPI);
   * `device`: a device's intake secret as a bearer token, which the operation verifies itself
   * (device-intake.service.ts), since only the device named in the path can be checked against it.
   */
  readonly auth: 'bearer' | 'admin' | 'none' | 'device';
  /** Every grant listed is required. */
  readonly grants?: readonly Grant[];
  /** Billing operations stay available while the workspace is disabled or billing-locked. */
  readonly allowInactiveTenant?: boolean;
  readonly params?: z.ZodObject;
  readonly query?: z.ZodObject;
  /**
   * Request headers the operation reads beyond Authorization and the correlation headers
   * (`Origin`), published as header parameters. Names in lower case.
   */
  readonly headers?: z.ZodObject;
  readonly body?: z.ZodType;
  /** The body is a JSON Merge Patch (application/merge-patch+json or application/json). */
  readonly mergePatch?: boolean;
  readonly success: {
    readonly status: 200 | 201 | 202 | 204;
    readonly description: string;
    readonly schema?: z.ZodType;
    /** Defaults to application/json. */
    readonly contentType?: string;
    /** A 202 names where to follow the accepted work in a Location header (a 201 always does). */
    readonly location?: boolean;
    /**
     * Other success answers of the operation, with the same body schema: a create that finds a
     * duplicate and answers the existing resource with 200, for example.
     */
    readonly alternatives?: readonly SuccessAlternative[];
    /**
     * The answer is the same for every caller and rarely changes: it carries an ETag, a request
     * whose If-None-Match names it is answered 304 without a body, and the body is compressed
     * (br or gzip) when Accept-Encoding allows (../http/conditional-result.ts).
     */
    readonly conditional?: true;
  };
  /** Error statuses the operation documents besides the ones every bearer route has. */
  readonly errors?: readonly number[];
}

export interface SuccessAlternative {
  readonly status: 200 | 201 | 202 | 204;
  readonly description: string;
  /** The answer carries a Location header (the existing resource's URL). */
  readonly location?: boolean;
}

/** Examples of one operation, as a client sends and receives them. */
export interface RouteExamples {
  /** A request body the route accepts (required when the route takes a body). */
  readonly request?: unknown;
  /** The success body (required when the success answer has a schema). */
  readonly response?: unknown;
  /** A query string the route accepts, as sent (`status=ALL&sort=email:asc`). */
  readonly query?: string;
}
