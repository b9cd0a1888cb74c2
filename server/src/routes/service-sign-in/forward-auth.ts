/**
 * GET /accounts/rest/forward-auth/{service} (server/docs/service-sign-in.md): the reverse proxy of a
 * platform service asks with the browser's cookies. 200 with X-Remote-User, X-Remote-Email,
 * X-Remote-Name and X-Remote-Groups; 401 without a signed-in session; 403 when the account does
 * not hold the service; 404 for a service id this portal does not offer. A refusal carries in
 * Location where the browser should go (the portal's /login with the original address as its
 * redirect, or the Subscriptions page with the service named, whose warning says which service
 * sent the user): nginx reads it with auth_request_set and answers the browser 302 itself. With
 * ?redirect=true (a proxy that passes a refusal through, Traefik's ForwardAuth) the refusal is
 * that 302. The original address is read from X-Forwarded-Proto, -Host and -Uri only when the
 * call comes from a trusted proxy (PORTAL_TRUSTED_PROXIES); without it /login has no redirect.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import * as api from '@portal/api';
import type { FastifyRequest } from 'fastify';
import { sendError } from '../../plugins/error-handler.js';
import { isFromTrustedProxy } from '../../plugins/request-origin.js';
import { sessionIdOf } from '../../plugins/security.js';
import type { SecuritySettings } from '../../services/security-context.js';
import { decideForwardAuth, serviceFinder } from '../../services/service-sign-in/forward-auth.js';
import { GrantCache } from '../../services/service-sign-in/grant-cache.js';
import { endpointRoute } from '../api/endpoint-route.js';
import { publicBaseUrl } from '../api/account-requests.js';

const single = (value: string | string[] | undefined): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * The address the browser asked the proxy for, from a trusted proxy's X-Forwarded-Proto, -Host
 * and -Uri; undefined when the call is not from one, or they do not make an http(s) address.
 */
export function originalUrl(request: FastifyRequest, settings: SecuritySettings): string | undefined {
  if (!isFromTrustedProxy(request, settings)) return undefined;
  const proto = single(request.headers['x-forwarded-proto'])?.trim().toLowerCase();
  const host = single(request.headers['x-forwarded-host'])?.trim();
  const uri = single(request.headers['x-forwarded-uri']) ?? '/';
  if ((proto !== 'http' && proto !== 'https') || !host || !uri.startsWith('/') || uri.startsWith('//')) return undefined;
  if ([...host, ...uri].some((c) => c.charCodeAt(0) <= 0x20 || c.charCodeAt(0) === 0x7f)) return undefined;
  try {
    const url = new URL(`${proto}://${host}${uri}`);
    // The host must be all of X-Forwarded-Host (no user part, no path smuggled in it).
    return url.host === host.toLowerCase() && url.username === '' && url.password === '' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * A header value as UTF-8 bytes (Node writes a string's characters as Latin-1 bytes, and refuses
 * one beyond U+00FF): a name such as 'Łukasz' reaches the service as its UTF-8 bytes. Control
 * characters are left out.
 */
function headerValue(text: string): string {
  // Printable ASCII, as most names are, is its own bytes.
  if (PRINTABLE_ASCII.test(text)) return text;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is taken out
  return Buffer.from(text.replace(/[\u0000-\u001f\u007f]/g, ''), 'utf8').toString('latin1');
}

export const forwardAuthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const serviceOf = serviceFinder(app.portalConfig);
  // How accounts hold services, kept by this server between calls while their stamps stay the same.
  const grants = new GrantCache();
  app.route({
    ...endpointRoute(api.forwardAuth),
    handler: async (request, reply) => {
      const service = serviceOf(request.params.service);
      const decision = await decideForwardAuth(app.security, grants, sessionIdOf(request, app.security.settings), service);
      if (decision.outcome === 'allowed') {
        const { identity } = decision;
        reply.header(api.FORWARD_AUTH_HEADERS.user, headerValue(identity.username));
        reply.header(api.FORWARD_AUTH_HEADERS.email, headerValue(identity.email));
        reply.header(api.FORWARD_AUTH_HEADERS.name, headerValue(identity.name));
        reply.header(api.FORWARD_AUTH_HEADERS.groups, headerValue(identity.groups.join(',')));
        return { ok: true as const };
      }
      const base = publicBaseUrl(request, app.security.settings);
      const target = decision.outcome === 'sign-in' ? api.links.login(originalUrl(request, app.security.settings)) : api.links.subscriptions(decision.service);
      if (request.query.redirect === 'true') return reply.redirect(`${base}${target}`, 302);
      reply.header('location', `${base}${target}`);
      return sendError(reply, decision.outcome === 'sign-in' ? 401 : 403, decision.message);
    },
  });
};
