/**
 * The headers every response carries (server/docs/security-headers.md), as helmet writes them:
 *   X-Content-Type-Options: nosniff    a file is only what its content type says
 *   X-Frame-Options: DENY              no page of the portal inside another site's frame
 *   Referrer-Policy: same-origin       addresses (status links, tokens in paths) stay here
 *   Cross-Origin-Opener-Policy: same-origin
 *   Content-Security-Policy            nothing runs from an API answer or a file; the host page
 *                                      gets pagePolicy() (routes/host.ts)
 *   Strict-Transport-Security          only on a request that came over HTTPS (set here: helmet
 *                                      sends it on every answer or on none)
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SecuritySettings } from '../services/security-context.js';
import { errorBody } from '../errors.js';
import { isSecureRequest } from './request-origin.js';
import { unencapsulated } from './unencapsulated.js';

/**
 * Helmet as this portal sets it: the headers above and no others. Helmet's other defaults
 * (Cross-Origin-Resource-Policy, Origin-Agent-Cluster, X-DNS-Prefetch-Control …) are off, so that
 * the set stays the documented one; adding one is a decision of its own.
 */
export const HELMET_OPTIONS = {
  // For everything but the host page: no content of its own, not framed, no forms.
  contentSecurityPolicy: {
    useDefaults: false,
    directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] },
  },
  xFrameOptions: { action: 'deny' },
  referrerPolicy: { policy: 'same-origin' },
  crossOriginOpenerPolicy: { policy: 'same-origin' },
  strictTransportSecurity: false,
  crossOriginEmbedderPolicy: false,
  crossOriginResourcePolicy: false,
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
} satisfies HelmetOptions;

/** The headers helmet sets with HELMET_OPTIONS, by lower-case name (helmet runs once, here). */
function helmetHeaders(): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: unknown) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(HELMET_OPTIONS)({} as IncomingMessage, response as unknown as ServerResponse, () => undefined);
  return headers;
}

const HELMET_HEADERS = Object.freeze(helmetHeaders());

/** The policy of everything but the host page, as helmet writes it. */
export const RESOURCE_POLICY = HELMET_HEADERS['content-security-policy'] ?? '';

export const HSTS = 'max-age=31536000';

/**
 * The origins outside this server that the page loads remotes from: the absolute http(s)
 * entries of the resolved environment manifest (a team's CDN, a developer's dev server).
 */
export function remoteOrigins(entries: readonly string[]): string[] {
  const origins = new Set<string>();
  for (const entry of entries) {
    if (!/^https?:\/\//i.test(entry)) continue;
    try {
      origins.add(new URL(entry).origin);
    } catch {
      // not a URL: the manifest check reports it; nothing is allowed for it
    }
  }
  return [...origins].sort();
}

/**
 * The host page's policy. Scripts, styles, data and fonts come from this server or a remote's
 * origin; styles may be inline (antd's CSS-in-JS and the startup frame write <style> elements);
 * the security challenge solves in Web Workers made from blob: URLs; a remote's dev server also
 * talks over a WebSocket (hot reload). Nothing may frame the page, change its base or post its
 * forms elsewhere; no plugins.
 */
export function pagePolicy(origins: readonly string[] = []): string {
  const from = (...sources: string[]) => [...sources, ...origins].join(' ');
  const sockets = origins.map((origin) => origin.replace(/^http/i, 'ws'));
  return [
    `default-src 'self'`,
    `script-src ${from("'self'")}`,
    `style-src ${from("'self'", "'unsafe-inline'")}`,
    `img-src ${from("'self'", 'data:')}`,
    `font-src ${from("'self'", 'data:')}`,
    `connect-src ${[from("'self'"), ...sockets].join(' ')}`,
    `worker-src 'self' blob:`,
    `object-src 'none'`,
    `base-uri 'self'`,
    `form-action 'self'`,
    `frame-ancestors 'none'`,
  ].join('; ');
}

/** The set with HSTS, made once and frozen as HELMET_HEADERS is: every answer takes one of the two as it is. */
const SECURE_HEADERS: Readonly<Record<string, string>> = Object.freeze({ ...HELMET_HEADERS, 'strict-transport-security': HSTS });

/**
 * The headers every answer carries, HSTS only when the request came over HTTPS: set by this
 * plugin's hook, and also where no hook runs (the router's own 400 and 414 in app.ts'
 * frameworkErrors, Node's parser errors written on the raw socket in plugins/error-handler.ts).
 */
export function securityHeaders(secure: boolean): Readonly<Record<string, string>> {
  return secure ? SECURE_HEADERS : HELMET_HEADERS;
}

function isSecure(request: FastifyRequest): boolean {
  const settings = (request.server as { security?: { settings: SecuritySettings } }).security?.settings;
  return settings !== undefined && isSecureRequest(request, settings);
}

/**
 * Sets them on an answer Fastify makes before any hook runs (app.ts: a URL the router refuses,
 * 400 and 414): the plugin sets them in an onRequest hook, which such an answer never reaches.
 */
export function applySecurityHeaders(request: FastifyRequest, reply: FastifyReply): void {
  reply.headers(securityHeaders(isSecure(request)));
}

/**
 * Helmet's headers, taken once from helmet itself (HELMET_HEADERS), set on every answer by one
 * synchronous hook. @fastify/helmet calls helmet(options) again on every request, parsing the
 * policy anew each time (server/docs/security-headers.md has the cost). The host page replaces the
 * policy with its own (routes/host.ts).
 */
export const securityHeadersPlugin = unencapsulated(async (app: FastifyInstance) => {
  // Fastify's own 503 while the server closes is written before any hook, without these headers
  // (app.ts turns it off with return503OnClosing: false): the same answer is made here instead.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(securityHeaders(isSecure(request)));
    if (closing) {
      reply.code(503).header('connection', 'close').type('application/json; charset=utf-8').send(errorBody(503, 'Service Unavailable'));
      return;
    }
    done();
  });
}, 'security-headers');
