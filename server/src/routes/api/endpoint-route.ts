/**
 * A route's options from its endpoint definition in @portal/api: the method, the path, the
 * declared access and anti-forgery rule, and the schemas Fastify validates and serializes with.
 * One definition serves the server, the browser's typed calls and the OpenAPI document:
 *
 *   app.route({ ...endpointRoute(getAccount), handler: async (request) => … })
 */
import { ErrorBody, type AnyEndpoint, type GroupPermission, type Permission, type RateLimitName } from '@portal/api';
import type { TSchema } from 'typebox';

type SchemaOf<E extends AnyEndpoint> = (E['params'] extends TSchema ? { params: E['params'] } : unknown) &
  (E['query'] extends TSchema ? { querystring: E['query'] } : unknown) &
  (E['body'] extends TSchema ? { body: E['body'] } : unknown) & { response: { 200: E['response'] } & Record<ErrorStatus, typeof ErrorBody> };

/** The failure statuses a route may answer (each with the error body). */
type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 423 | 429 | 500 | 503;

interface EndpointConfig {
  access?: 'public' | 'session';
  permission?: Permission;
  /** Signed in, and the service checks this permission in the group the call names (the OpenAPI document says so). */
  groupPermission?: GroupPermission;
  xsrf: boolean;
  /** A public route's rate limit (plugins/security.ts). */
  limit?: RateLimitName;
  /** The route answers while the caller's account must renew (plugins/security.ts). */
  duringRenewal?: boolean;
  /** The endpoint's one-line summary, for the OpenAPI document. */
  summary: string;
}

export function endpointRoute<E extends AnyEndpoint>(
  endpoint: E,
  extra: { duringRenewal?: boolean } = {},
): { method: E['method']; url: string; config: EndpointConfig; schema: SchemaOf<E> } {
  const declared = endpoint.access;
  const access =
    declared === 'public' || declared === 'session'
      ? { access: declared }
      : 'permission' in declared
        ? { permission: declared.permission }
        : { access: 'session' as const, groupPermission: declared.groupPermission };
  const schema: Record<string, unknown> = {
    summary: endpoint.summary,
    response: { 200: endpoint.response, ...Object.fromEntries(endpoint.errors.map((status) => [status, ErrorBody])) },
  };
  if (endpoint.params) schema.params = endpoint.params;
  if (endpoint.query) schema.querystring = endpoint.query;
  if (endpoint.body) schema.body = endpoint.body;
  return {
    method: endpoint.method,
    url: endpoint.path,
    config: { ...access, xsrf: endpoint.xsrf, ...(endpoint.limit === undefined ? {} : { limit: endpoint.limit }), summary: endpoint.summary, ...extra },
    schema: schema as SchemaOf<E>,
  };
}
