/**
 * The one API client of the portal, used by the host and every remote. All paths are under
 * /accounts/rest (spec section 7). A body carrying an `error` field is a failure whatever the
 * status (spec section 8); a transport failure becomes the generic communication message.
 */
import { pathOf, type AnyEndpoint, type InputOf, type ResponseOf } from '@portal/api';
import { MESSAGES } from '../messages.js';

export const API_BASE = '/accounts/rest';

export class ApiError extends Error {
  /** HTTP status; 0 for a transport failure (no answer at all). */
  readonly status: number;
  /** The server's numeric code when it gave one, else the status. */
  readonly code: number;
  /** A form's failing fields (flat field name → message), when the server named them. */
  readonly fields: Readonly<Record<string, string>>;
  constructor(message: string, status: number, code?: number, fields: Readonly<Record<string, string>> = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code ?? status;
    this.fields = fields;
  }
  get isTransportFailure(): boolean {
    return this.status === 0;
  }
}

export interface RequestOptions {
  readonly signal?: AbortSignal;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
  /** False for the calls spec section 7 exempts from the anti-forgery header. */
  readonly xsrf?: boolean;
}

/** The anti-forgery header every call but the exempt ones carries (spec section 7). */
export const XSRF_HEADER = 'X-XSRF-TOKEN';
/** What the server answers when that header is missing or stale. */
export const INVALID_XSRF = 'Invalid anti-forgery token';

let xsrfToken: Promise<string> | null = null;

/** Forgets the anti-forgery token: after sign-in, sign-out, or an error (spec section 8). */
export function clearXsrfToken(): void {
  xsrfToken = null;
}

/**
 * Takes `token` as the anti-forgery token instead of asking GET /xsrf: the one the first HTML
 * carried for the session in the cookie. A token already asked for is kept. Should the session
 * have changed since, the first call refused for it asks for a new one (apiRequest).
 */
export function adoptXsrfToken(token: string): void {
  if (!xsrfToken) xsrfToken = Promise.resolve(token);
}

/** GET /xsrf, once: it also establishes the http session. */
function antiForgeryToken(): Promise<string> {
  if (!xsrfToken) {
    const pending = send<{ ok: string }>('GET', '/xsrf', { xsrf: false }).then(({ ok }) => ok);
    pending.catch(() => {
      if (xsrfToken === pending) xsrfToken = null;
    });
    xsrfToken = pending;
  }
  return xsrfToken;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

function fieldMessages(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

function errorField(body: unknown): { error: string; code?: number; fields: Record<string, string> } | undefined {
  if (typeof body === 'object' && body !== null && 'error' in body) {
    const { error, code, fields } = body as { error: unknown; code?: unknown; fields?: unknown };
    if (error !== undefined && error !== null && error !== false) {
      return { error: String(error), code: typeof code === 'number' ? code : undefined, fields: fieldMessages(fields) };
    }
  }
  return undefined;
}

/**
 * One call to the API. Non-exempt calls carry the anti-forgery token, fetched first and cached;
 * any failure forgets it, and a call refused for a stale token is sent once more with a new one.
 */
export async function apiRequest<T>(method: Method, path: string, options: RequestOptions = {}): Promise<T> {
  if (options.xsrf === false) return send<T>(method, path, options);
  try {
    return await send<T>(method, path, { ...options, headers: { ...options.headers, [XSRF_HEADER]: await antiForgeryToken() } });
  } catch (error) {
    // A call the caller gave up on (a page left, a newer search) says nothing about the token.
    if (options.signal?.aborted) throw error;
    clearXsrfToken();
    if (!(error instanceof ApiError && error.status === 403 && error.message === INVALID_XSRF)) throw error;
  }
  return send<T>(method, path, { ...options, headers: { ...options.headers, [XSRF_HEADER]: await antiForgeryToken() } });
}

export interface CallOptions {
  readonly signal?: AbortSignal;
  /** Extra headers, e.g. the verification code as `Authorization: Bearer …`. */
  readonly headers?: Record<string, string>;
}

/**
 * Calls an endpoint defined in @portal/api with its typed input: the path parameters filled in,
 * the query and the body sent, the anti-forgery header as the definition says. Answers the typed
 * 200 body; any failure is an ApiError (see apiRequest).
 *
 *   const account = await call(getAccount, { params: { username } }, { signal });
 */
export function call<E extends AnyEndpoint>(endpoint: E, input: InputOf<E>, options: CallOptions = {}): Promise<ResponseOf<E>> {
  const { params, query, body } = input as { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown };
  return apiRequest<ResponseOf<E>>(endpoint.method, pathOf(endpoint, params, query), {
    signal: options.signal,
    headers: options.headers,
    body,
    xsrf: endpoint.xsrf,
  });
}

/** An endpoint's address under /accounts/rest, for a plain link (a download the browser saves). */
export function linkTo<E extends AnyEndpoint>(endpoint: E, input: Partial<Pick<{ params: Record<string, unknown>; query: Record<string, unknown> }, 'params' | 'query'>> = {}): string {
  return `${API_BASE}${pathOf(endpoint, input.params, input.query)}`;
}

async function send<T>(method: Method, path: string, options: RequestOptions): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(`${API_BASE}${path}`, {
      method,
      headers,
      body,
      credentials: 'same-origin',
      signal: options.signal,
    });
  } catch (cause) {
    if (options.signal?.aborted) throw cause;
    throw new ApiError(MESSAGES.communicationError, 0);
  }
  const text = await response.text();
  let parsed: unknown = undefined;
  if (text !== '') {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
  }
  const failure = errorField(parsed);
  if (failure) throw new ApiError(failure.error, response.status, failure.code, failure.fields);
  if (!response.ok) throw new ApiError(response.statusText || `Request failed with status ${response.status}`, response.status);
  return parsed as T;
}
