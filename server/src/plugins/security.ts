/**
 * Application plugin: sessions over cookies, the anti-forgery check and access enforcement.
 *
 * Every route under /accounts/rest gets a guard that runs first (onRequest, before the body is
 * parsed or validated, so an unauthorized caller learns nothing about the body's rules):
 *  0. rate: a public route that declares a limit counts the call against its client address's
 *     (shared by every server through the database) → past it 429 with Retry-After; a signed-in
 *     call counts against its session's limit (this server's memory), after step 2;
 *  1. anti-forgery: unless the route declares `config: { xsrf: false }`, the X-XSRF-TOKEN header
 *     must be the token of the caller's session → else 403 'Invalid anti-forgery token';
 *  2. access as the route declares it: 'public' → anyone; 'session' → a signed-in session
 *     (401 'Not signed in'); a permission → a signed-in session holding it (403 'Forbidden');
 *     a signed-in session whose account must renew (annual certification) is refused (403
 *     'Your account must be renewed before you continue.') by every route that does not
 *     declare `config: { duringRenewal: true }`.
 * Exemptions are declared per route, never decided from the URL.
 */
import type { X509Certificate } from 'node:crypto';
import { TLSSocket } from 'node:tls';
import { isRateLimitName, type RateLimitName } from '@portal/api';
import type { RouteAccess } from '@portal/shared/contract';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler, RouteOptions } from 'fastify';
import type { Database } from '../db/database.js';
import { TooManyRequestsError } from '../errors.js';
import { MESSAGES } from '../messages.js';
import { SELF_SERVICE_MESSAGES } from '../self-service-messages.js';
import { parseCertificate } from '../services/certificates.js';
import type { Clock } from '../services/clock.js';
import { clientKey, databaseRateLimitStore, limitKey, RATE_LIMIT_MESSAGES, SessionRateLimiter, type LimitName, type RateLimit } from '../services/rate-limits.js';
import { createSecurityContext, type SecurityContext, type SecuritySettings } from '../services/security-context.js';
import { createSession, endSession, isSessionId, isXsrfTokenOf, resolveSession, signOutSession, type CurrentSession } from '../services/sessions.js';
import { sendError } from './error-handler.js';
import { clientAddress, isFromTrustedProxy, isSecureRequest } from './request-origin.js';
import { declaredAccess, declaredXsrf, isApiPath, RouteDeclarationError } from './route-access.js';
import { unencapsulated } from './unencapsulated.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** For routes under /accounts/rest: false exempts the route from the anti-forgery check. */
    xsrf?: boolean;
    /** For public routes under /accounts/rest: the rate limit its calls count against (services/rate-limits.ts). */
    limit?: RateLimitName;
    /**
     * For signed-in routes under /accounts/rest: true lets a session whose account must renew
     * (annual certification) through; every other signed-in route refuses it with 403
     * 'Your account must be renewed before you continue.' (GET /sessions/current, POST /requests/renewal).
     */
    duringRenewal?: boolean;
  }
  interface FastifyInstance {
    readonly security: SecurityContext;
  }
  interface FastifyRequest {
    /** The caller's session (memoized per request); undefined when the cookie names none that is valid. */
    portalSession(): Promise<CurrentSession | undefined>;
    /** portalSession's memo: null until it is first asked. Read it through portalSession() alone. */
    portalSessionMemo: Promise<CurrentSession | undefined> | null;
  }
}

/** The cookie over TLS: the __Host- prefix pins it to this host, Secure and Path=/. */
export const SECURE_SESSION_COOKIE = '__Host-portal-session';
/**
 * The cookie over TLS with PORTAL_COOKIE_DOMAIN: a __Host- cookie may not name a Domain, so the
 * __Secure- prefix (Secure required) is what browsers accept for one sent to sibling hosts.
 */
export const SECURE_DOMAIN_SESSION_COOKIE = '__Secure-portal-session';
/** Without TLS browsers refuse a __Host- cookie, so the plain name is used. */
export const SESSION_COOKIE = 'portal-session';
export const XSRF_HEADER = 'x-xsrf-token';

export interface SecurityOptions {
  db: Database;
  clock: Clock;
  settings: SecuritySettings;
}

function cookieName(request: FastifyRequest, settings: SecuritySettings): string {
  if (!isSecureRequest(request, settings)) return SESSION_COOKIE;
  return settings.cookieDomain === undefined ? SECURE_SESSION_COOKIE : SECURE_DOMAIN_SESSION_COOKIE;
}

/** The session cookie's attributes: Path=/, HttpOnly, SameSite=Lax, Secure over TLS, and the configured Domain. */
function cookieAttributes(request: FastifyRequest, settings: SecuritySettings) {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: isSecureRequest(request, settings),
    ...(settings.cookieDomain === undefined ? {} : { domain: settings.cookieDomain }),
  };
}

/** The well-formed session id in the request's cookie, if any. */
export function sessionIdOf(request: FastifyRequest, settings: SecuritySettings): string | undefined {
  const id = request.cookies[cookieName(request, settings)];
  return id !== undefined && isSessionId(id) ? id : undefined;
}

/**
 * The cookie of a session just started: it lives as long as the server keeps the session at most
 * (the absolute expiry), so a browser never holds a cookie the server has forgotten.
 */
function setSessionCookie(request: FastifyRequest, reply: FastifyReply, settings: SecuritySettings, id: string): void {
  reply.setCookie(cookieName(request, settings), id, { ...cookieAttributes(request, settings), maxAge: settings.sessionAbsoluteHours * 3_600 });
}

/**
 * Starts a new session (signed in when accountId is given, else anonymous): the caller's old
 * session is deleted and a new id is issued in the cookie. A new session has a new anti-forgery token.
 */
export async function startSession(request: FastifyRequest, reply: FastifyReply, accountId: number | null): Promise<CurrentSession> {
  const security = request.server.security;
  const old = await request.portalSession();
  if (old) await endSession(security, old);
  const id = await createSession(security, accountId);
  setSessionCookie(request, reply, security.settings, id);
  const session = await resolveSession(security, id);
  if (!session) throw new Error('a session just created cannot be read back');
  request.portalSessionMemo = Promise.resolve(session);
  return session;
}

/**
 * The portal's sign-out: ends the caller's session, if any (deleted on the server, with the
 * sign-ins to the platform's services made in this browser), and clears the cookie.
 */
export async function endCurrentSession(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const security = request.server.security;
  const session = await request.portalSession();
  if (session) await signOutSession(security, session, request.headers.cookie);
  reply.clearCookie(cookieName(request, security.settings), cookieAttributes(request, security.settings));
  request.portalSessionMemo = Promise.resolve(undefined);
}

/**
 * Ends the caller's session, if any, for a sign-out made at the OpenID provider (which ended its
 * own session and told its clients already); answers the Set-Cookie header that clears the cookie,
 * for an answer the provider writes itself.
 */
export async function endSessionForProviderSignOut(request: FastifyRequest): Promise<string[]> {
  const security = request.server.security;
  const session = await request.portalSession();
  if (session) await endSession(security, session);
  request.portalSessionMemo = Promise.resolve(undefined);
  const name = cookieName(request, security.settings);
  return [request.server.serializeCookie(name, '', { ...cookieAttributes(request, security.settings), expires: new Date(0) })];
}

/** The caller's session; a new anonymous one when there is none (or it is of a locked or closed account). */
export async function ensureSession(request: FastifyRequest, reply: FastifyReply): Promise<CurrentSession> {
  const session = await request.portalSession();
  if (session && !session.refused) return session;
  return startSession(request, reply, null);
}

/** Whether a route lets a session that must renew through; throws RouteDeclarationError for a value other than true/false. */
function declaredDuringRenewal(route: RouteOptions): boolean {
  const value: unknown = (route.config as Record<string, unknown> | undefined)?.duringRenewal;
  if (value === undefined) return false;
  if (typeof value !== 'boolean') {
    throw new RouteDeclarationError(`${String(route.method)} ${route.url}: config.duringRenewal must be true or false, not '${String(value)}'`);
  }
  return value;
}

/** The rate limit a route declares (config.limit, from its endpoint's `limit`); only a public route may. */
function declaredRateLimit(route: RouteOptions, access: RouteAccess): RateLimitName | undefined {
  const value: unknown = (route.config as Record<string, unknown> | undefined)?.limit;
  if (value === undefined) return undefined;
  if (!isRateLimitName(value)) throw new RouteDeclarationError(`${String(route.method)} ${route.url}: config.limit '${String(value)}' is not a rate limit`);
  if (access.kind !== 'public') throw new RouteDeclarationError(`${String(route.method)} ${route.url}: only a public route declares a rate limit (a session's calls have their own)`);
  return value;
}

function tooMany(reply: FastifyReply, retryAfterSeconds: number, message: string): FastifyReply {
  reply.header('retry-after', String(retryAfterSeconds));
  return sendError(reply, 429, message);
}

/**
 * A visitor's limit (step 0): @fastify/rate-limit counting the calls of the client's address under
 * the limit's name, on the database's store (services/rate-limits.ts); past it, 429 with
 * Retry-After and the sentence. Starting a session counts only when the caller has none yet.
 */
function visitorLimit(app: FastifyInstance, name: LimitName, limit: RateLimit): onRequestHookHandler {
  const settings = app.security.settings;
  return app.rateLimit({
    max: limit.max,
    timeWindow: limit.windowSeconds * 1000,
    keyGenerator: (request) => limitKey(name, clientKey(clientAddress(request, settings))),
    ...(name === 'session-start' ? { allowList: async (request: FastifyRequest) => (await request.portalSession()) !== undefined } : {}),
  }) as unknown as onRequestHookHandler;
}

/** `sessionLimiter`: the app's per-session limit (this server's memory). */
function guardFor(route: RouteOptions, sessionLimiter: SessionRateLimiter): onRequestHookHandler | undefined {
  const access = declaredAccess(route);
  const xsrf = declaredXsrf(route);
  const duringRenewal = declaredDuringRenewal(route);
  // A public route without the anti-forgery check has nothing to guard (forward auth, on every
  // call of every service, is one).
  if (access.kind === 'public' && !xsrf) return undefined;
  return async function guard(request, reply) {
    const security = request.server.security;
    if (xsrf) {
      // Bound to the session id in the cookie (an HMAC of it), whether or not that session is
      // still valid: a request with an ended or expired session and its token is then simply
      // not signed in (401), while a token of any other session, or none, is refused (403).
      const id = sessionIdOf(request, security.settings);
      if (id === undefined || !(await isXsrfTokenOf(security, id, request.headers[XSRF_HEADER]))) {
        return sendError(reply, 403, MESSAGES.invalidXsrf);
      }
    }
    if (access.kind === 'public') return;
    const session = await request.portalSession();
    if (!session?.account) return sendError(reply, 401, MESSAGES.notSignedIn);
    const sessionRate = sessionLimiter.count(session.idHash, security.clock.now());
    if (!sessionRate.allowed) return tooMany(reply, sessionRate.retryAfterSeconds, RATE_LIMIT_MESSAGES.tooManyFromSession(sessionRate.retryAfterSeconds));
    // Annual certification first: until the account renews, only the renewal routes answer.
    if (session.account.renewalDue && !duringRenewal) return sendError(reply, 403, SELF_SERVICE_MESSAGES.renewalRequired);
    if (access.kind === 'permission' && !session.account.permissions.includes(access.permission)) {
      return sendError(reply, 403, MESSAGES.forbidden);
    }
  };
}

export const securityPlugin = unencapsulated(async function security(app: FastifyInstance, options: SecurityOptions) {
  const context = createSecurityContext(options.db, options.clock, options.settings);
  app.decorate('security', context);
  const sessionLimiter = new SessionRateLimiter(options.settings.sessionRateLimit);
  // The memo is a property of the request, not an entry of a WeakMap keyed by it: V8's young
  // collector keeps a WeakMap's values alive past their keys, so each request's session was copied
  // into the old generation and then collected there (docs/performance.md, "The session check's ratio").
  app.decorateRequest('portalSessionMemo', null);
  app.decorateRequest('portalSession', function portalSession(this: FastifyRequest) {
    this.portalSessionMemo ??= resolveSession(context, sessionIdOf(this, context.settings));
    return this.portalSessionMemo;
  });
  // Visitors' limits (step 0) are @fastify/rate-limit's, made per route below, never global.
  await app.register(rateLimit, {
    global: false,
    store: databaseRateLimitStore(context.db, context.clock),
    hook: 'onRequest',
    // Retry-After alone: the X-RateLimit-* headers would tell a flooder how much is left.
    addHeaders: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false, 'retry-after': true },
    addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
    errorResponseBuilder: (_request, { ttl }) => new TooManyRequestsError(RATE_LIMIT_MESSAGES.tooManyFromAddress(Math.max(1, Math.ceil(ttl / 1000)))),
  });
  app.addHook('onRoute', (route) => {
    if (!isApiPath(route.url)) return;
    const existing = route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
    const name = declaredRateLimit(route, declaredAccess(route));
    const limit = name === undefined ? undefined : options.settings.rateLimits[name];
    // A visitor's call counts against its limit first, before any other work (a flood costs one statement a call).
    const first = name !== undefined && limit !== undefined ? [visitorLimit(app, name, limit)] : [];
    const guard = guardFor(route, sessionLimiter);
    route.onRequest = [...first, ...(guard ? [guard] : []), ...existing];
  });
}, 'security');

/**
 * The caller's verified client certificate: from our own HTTPS listener (only when the TLS
 * layer verified it against the configured CA: socket.authorized), else from a trusted reverse
 * proxy's X-Client-Cert (URL-encoded PEM) with X-Client-Verify: SUCCESS. Headers from any
 * other address are ignored. Undefined when there is none.
 */
export function clientCertificate(request: FastifyRequest, settings: SecuritySettings): X509Certificate | undefined {
  const socket = request.raw.socket;
  if (socket instanceof TLSSocket && socket.authorized) {
    const peer = socket.getPeerCertificate();
    if (peer && Buffer.isBuffer(peer.raw)) return parseCertificate(peer.raw);
  }
  if (!isFromTrustedProxy(request, settings)) return undefined;
  const verify = request.headers['x-client-verify'];
  const pem = request.headers['x-client-cert'];
  if (verify !== 'SUCCESS' || typeof pem !== 'string' || pem === '') return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(pem);
  } catch {
    return undefined;
  }
  return parseCertificate(decoded);
}
