/**
 * One definition per API call (spec section 7): its method and path under /accounts/rest, who
 * may call it, whether it needs the anti-forgery header, and the TypeBox schemas of its path
 * parameters, query, body and answer. The server registers its route from the definition (and
 * validates with these schemas); the browser calls it through `call()` of @portal/shared with
 * the types derived from the same schemas; the OpenAPI document is generated from them.
 */
import type { Static, TSchema } from 'typebox';
import type { GroupPermission } from './groups/model.js';
import type { Permission } from './permissions.js';
import type { RateLimitName } from './rate-limits.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Who may call an endpoint: anyone, any signed-in user, a holder of a session permission, or a
 * signed-in user holding a permission in the user group the call is about (through their role
 * there or site-wide; the service checks it, since the group comes from the call).
 */
export type EndpointAccess = 'public' | 'session' | { readonly permission: Permission } | { readonly groupPermission: GroupPermission };

export interface Endpoint<
  P extends TSchema | undefined = TSchema | undefined,
  Q extends TSchema | undefined = TSchema | undefined,
  B extends TSchema | undefined = TSchema | undefined,
  R extends TSchema = TSchema,
> {
  readonly method: Method;
  /** Under /accounts/rest, Fastify syntax for parameters: '/accounts/:username'. */
  readonly path: string;
  readonly access: EndpointAccess;
  /** False for the calls spec section 7 exempts from the anti-forgery header. */
  readonly xsrf: boolean;
  /** A public call's rate limit (per client address, rate-limits.ts); undefined: none. */
  readonly limit: RateLimitName | undefined;
  /** One line for people and the OpenAPI summary. */
  readonly summary: string;
  readonly params: P;
  readonly query: Q;
  readonly body: B;
  /** The 200 answer. */
  readonly response: R;
  /** The failure statuses it answers, each with the error body. */
  readonly errors: readonly number[];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a definition of any shape (variance of the schema parameters)
export type AnyEndpoint = Endpoint<any, any, any, any>;

interface Definition<P, Q, B, R> {
  readonly method: Method;
  readonly path: string;
  readonly access: EndpointAccess;
  readonly xsrf?: boolean;
  readonly limit?: RateLimitName;
  readonly summary: string;
  readonly params?: P;
  readonly query?: Q;
  readonly body?: B;
  readonly response: R;
  readonly errors?: readonly number[];
}

/** The errors every call may answer (a server fault); signed-in calls add 401 and 403. */
const ALWAYS = [400, 500];

export function defineEndpoint<
  R extends TSchema,
  P extends TSchema | undefined = undefined,
  Q extends TSchema | undefined = undefined,
  B extends TSchema | undefined = undefined,
>(definition: Definition<P, Q, B, R>): Endpoint<P, Q, B, R> {
  // A signed-in call may be refused for its session's rate (429); a public one for its limit's.
  const signedIn = definition.access === 'public' ? [] : [401, 403, 429];
  const limited = definition.limit === undefined ? [] : [429];
  const errors = [...new Set([...ALWAYS, ...signedIn, ...limited, ...(definition.errors ?? [])])].sort((a, b) => a - b);
  return {
    method: definition.method,
    path: definition.path,
    access: definition.access,
    xsrf: definition.xsrf ?? true,
    limit: definition.limit,
    summary: definition.summary,
    params: definition.params as P,
    query: definition.query as Q,
    body: definition.body as B,
    response: definition.response,
    errors,
  };
}

type StaticOf<S> = S extends TSchema ? Static<S> : never;

export type ParamsOf<E extends AnyEndpoint> = StaticOf<E['params']>;
export type QueryOf<E extends AnyEndpoint> = StaticOf<E['query']>;
export type BodyOf<E extends AnyEndpoint> = StaticOf<E['body']>;
export type ResponseOf<E extends AnyEndpoint> = Static<E['response']>;

/** What a caller passes: only the parts the endpoint has. */
export type InputOf<E extends AnyEndpoint> = (E['params'] extends TSchema ? { readonly params: ParamsOf<E> } : unknown) &
  (E['query'] extends TSchema ? { readonly query: QueryOf<E> } : unknown) &
  (E['body'] extends TSchema ? { readonly body: BodyOf<E> } : unknown);

/**
 * The path of a call with its parameters filled in and encoded, plus the query string:
 * pathOf(getAccount, { username: 'a b' }) → '/accounts/a%20b'.
 */
export function pathOf(endpoint: Pick<AnyEndpoint, 'path'>, params?: Readonly<Record<string, unknown>>, query?: Readonly<Record<string, unknown>>): string {
  const path = endpoint.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_match, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null) throw new Error(`${endpoint.path}: the parameter '${name}' is missing`);
    return encodeURIComponent(String(value));
  });
  if (!query) return path;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== null) search.append(key, String(value));
  const text = search.toString();
  return text === '' ? path : `${path}?${text}`;
}

/** The endpoint's path in OpenAPI syntax ('/accounts/{username}'). */
export function openApiPath(endpoint: Pick<AnyEndpoint, 'path'>): string {
  return endpoint.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
}
