/**
 * The headers every response carries (server/docs/security-headers.md):
 *   X-Content-Type-Options: nosniff    a file is only what its content type says
 *   X-Frame-Options: DENY              no page of the portal inside another site's frame
 *   Referrer-Policy: same-origin       addresses (status links, tokens in paths) stay here
 *   Cross-Origin-Opener-Policy: same-origin
 *   Content-Security-Policy            nothing runs from an API answer or a file; the host page
 *                                      gets pagePolicy() (routes/host.ts)
 *   Strict-Transport-Security          only on a request that came over HTTPS
 */
import type { FastifyInstance } from 'fastify';
import { isSecureRequest } from './security.js';
import { unencapsulated } from './unencapsulated.js';

/** For everything but the host page: no content of its own, not framed, no forms. */
export const RESOURCE_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

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

export const securityHeadersPlugin = unencapsulated(async (app: FastifyInstance) => {
  app.addHook('onRequest', async (request, reply) => {
    reply.headers({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'same-origin',
      'cross-origin-opener-policy': 'same-origin',
      'content-security-policy': RESOURCE_POLICY,
    });
    if (isSecureRequest(request, app.security.settings)) reply.header('strict-transport-security', HSTS);
  });
}, 'security-headers');
