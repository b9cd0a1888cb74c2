/**
 * The OpenID Connect provider under /oidc (services/service-sign-in/oidc/provider.ts;
 * server/docs/service-sign-in.md, "OpenID Connect"), and the portal's page of its interactions,
 * /oidc/interaction/{uid}, where the portal session signs the user in to a relying party.
 *
 * oidc-provider is a Koa application that reads the requests' bodies itself (the token endpoint's
 * form, with its own limits and errors). Its requests are handed to it whole from a route whose
 * body is never parsed here: the routes below take any content type without reading it, and the
 * route hands Node's request and response over (reply.hijack()), with the mount point taken off
 * the path as the provider expects.
 */
import type { IncomingMessage } from 'node:http';
import { Server as TlsServer } from 'node:tls';
import * as api from '@portal/api';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { errors as oidcErrors } from 'oidc-provider';
import { InvalidInputError } from '../../errors.js';
import { clientAddress, isFromTrustedProxy } from '../../plugins/security.js';
import { clientKey, countCall, RATE_LIMIT_MESSAGES } from '../../services/rate-limits.js';
import { boundService, decideOidcSignIn } from '../../services/service-sign-in/oidc/accounts.js';
import { hashedBasicAuthorization } from '../../services/service-sign-in/oidc/clients.js';
import { createOidcProvider, GRANTED_SCOPES, INTERACTION_PATH, OIDC_PATH } from '../../services/service-sign-in/oidc/provider.js';
import { shownHost } from '../../listen-address.js';
import { publicBaseUrl } from '../api/account-requests.js';

export const OIDC_MESSAGES = {
  interactionGone: 'This sign-in to a service has expired or was already finished. Start again from the service.',
} as const;

/** The token endpoint, where a rate limit of its own applies (PORTAL_RATE_LIMITS' oidc-token). */
const TOKEN_PATH = `${OIDC_PATH}/token`;

/** The headers a proxy sets; believed only from a trusted proxy (PORTAL_TRUSTED_PROXIES). */
const FORWARDED_HEADERS = ['x-forwarded-proto', 'x-forwarded-host', 'x-forwarded-port', 'x-forwarded-for'] as const;

/**
 * The issuer: PORTAL_PUBLIC_URL followed by /oidc when it is set, else the address the server
 * prints at start (main.ts), read from the listening socket at the first request. Never from a
 * request's Host header: the issuer would then be whatever the first caller wrote.
 */
function issuerOf(app: FastifyInstance): string {
  const publicUrl = app.security.settings.publicUrl;
  if (publicUrl !== undefined) return `${publicUrl}${OIDC_PATH}`;
  const address = app.server.address();
  // Not listening: requests come only from inside the process (app.inject in tests).
  if (address === null || typeof address === 'string') return `http://localhost${OIDC_PATH}`;
  const scheme = app.server instanceof TlsServer ? 'https' : 'http';
  return `${scheme}://${shownHost(address.address)}:${address.port}${OIDC_PATH}`;
}

const escapeHtml = (value: string): string => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The consent page of a client added with --consent: what it will learn, Allow or Deny. Plain
 * HTML under a policy that allows no style: the browser's own, light or dark as the reader's
 * system is (color-scheme), readable on a phone (viewport).
 */
function consentPage(clientName: string, uid: string): string {
  const name = escapeHtml(clientName);
  const action = (what: string) => `${INTERACTION_PATH}/${encodeURIComponent(uid)}/${what}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark"><title>Sign in to ${name}</title></head>
<body>
<h1>Sign in to ${name}</h1>
<p>${name} will learn your username, your name, your email address and your groups.</p>
<form method="post" action="${action('allow')}"><button type="submit">Allow</button></form>
<form method="post" action="${action('deny')}"><button type="submit">Deny</button></form>
</body></html>
`;
}

export const oidcRoutes: FastifyPluginAsync = async (app) => {
  const requests = new WeakMap<IncomingMessage, FastifyRequest>();
  let provider: Promise<{ provider: Provider; handle: ReturnType<Provider['callback']> }> | undefined;
  const providerOf = () => {
    provider ??= (async () => {
      const created = await createOidcProvider({
        db: app.security.db,
        issuer: issuerOf(app),
        cookieKey: await app.security.secret('oidc-cookies'),
        portalSession: async (req) => requests.get(req)?.portalSession(),
        sessionSeconds: app.security.settings.sessionAbsoluteHours * 3600,
      });
      // X-Forwarded-* reach it only from a trusted proxy (they are taken off the others' requests).
      created.proxy = true;
      created.on('server_error', (_ctx, error) => app.log.error({ err: error }, 'the OpenID provider failed to answer a request'));
      return { provider: created, handle: created.callback() };
    })();
    // A failure (the database down) is not remembered: the next request tries again.
    provider.catch(() => (provider = undefined));
    return provider;
  };

  // The provider reads its requests' bodies itself: nothing here parses (or reads) them.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));

  app.route({
    method: ['GET', 'POST', 'OPTIONS'],
    url: `${OIDC_PATH}/*`,
    handler: async (request, reply) => {
      const raw = request.raw;
      // The token endpoint counts its calls per client address before the provider does any work
      // (a client's secret is checked there): 429 with Retry-After, in the protocol's error form.
      const tokenLimit = app.security.settings.rateLimits['oidc-token'];
      if (tokenLimit !== undefined && request.method === 'POST' && (raw.url ?? '').split('?')[0] === TOKEN_PATH) {
        const address = clientKey(clientAddress(request, app.security.settings));
        const decision = await countCall(app.security.db, 'oidc-token', address, tokenLimit, app.security.clock.now());
        if (!decision.allowed) {
          return reply
            .code(429)
            .header('retry-after', String(decision.retryAfterSeconds))
            .header('cache-control', 'no-store')
            .send({ error: 'temporarily_unavailable', error_description: RATE_LIMIT_MESSAGES.tooManyFromAddress(decision.retryAfterSeconds) });
        }
      }
      const { handle } = await providerOf();
      requests.set(raw, request);
      if (!isFromTrustedProxy(request, app.security.settings)) for (const header of FORWARDED_HEADERS) delete raw.headers[header];
      // The provider compares hashes: a client's secret is kept only hashed (services/service-sign-in/oidc/clients.ts).
      const authorization = hashedBasicAuthorization(raw.headers.authorization);
      if (authorization !== undefined) raw.headers.authorization = authorization;
      // As Express mounts an application: the path below the mount point, and the whole one in
      // originalUrl, from which the provider learns its mount point for the addresses it writes.
      const url = raw.url ?? OIDC_PATH;
      (raw as IncomingMessage & { originalUrl?: string }).originalUrl = url;
      raw.url = url.slice(OIDC_PATH.length) || '/';
      // The security headers set so far (plugins/security-headers.ts) go out with the provider's answer.
      for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
      reply.hijack();
      await handle(raw, reply.raw);
    },
  });

  /** The interaction the browser's cookie names, and its provider; InvalidInputError when it is gone. */
  async function interactionOf(request: FastifyRequest, reply: FastifyReply) {
    const { provider: oidc } = await providerOf();
    try {
      return { oidc, details: await oidc.interactionDetails(request.raw, reply.raw) };
    } catch (error) {
      if (error instanceof oidcErrors.SessionNotFound) throw new InvalidInputError(OIDC_MESSAGES.interactionGone);
      throw error;
    }
  }

  app.get<{ Params: { uid: string } }>(`${INTERACTION_PATH}/:uid`, async (request, reply) => {
    const { oidc, details } = await interactionOf(request, reply);
    const client = await oidc.Client.find(String(details.params['client_id']));
    const service = boundService(client?.metadata()['portal_service']);
    const decision = await decideOidcSignIn(app.security.db, await request.portalSession(), service);
    const base = publicBaseUrl(request, app.security.settings);
    if (decision.outcome === 'sign-in') return reply.redirect(`${base}${api.links.login(`${INTERACTION_PATH}/${encodeURIComponent(details.uid)}`)}`, 302);
    if (decision.outcome === 'subscribe') return reply.redirect(`${base}${api.links.subscriptions(decision.service)}`, 302);
    if (details.prompt.name === 'login') {
      const accountId = String(decision.accountId);
      return reply.redirect(await oidc.interactionResult(request.raw, reply.raw, { login: { accountId } }, { mergeWithLastSubmission: false }), 303);
    }
    reply.header('content-security-policy', "default-src 'none'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'");
    return reply.type('text/html; charset=utf-8').send(consentPage(String(client?.metadata()['client_name'] ?? details.params['client_id']), details.uid));
  });

  app.post<{ Params: { uid: string } }>(`${INTERACTION_PATH}/:uid/allow`, async (request, reply) => {
    const { oidc, details } = await interactionOf(request, reply);
    const accountId = details.session?.accountId;
    const clientId = String(details.params['client_id']);
    if (details.prompt.name !== 'consent' || accountId === undefined) throw new InvalidInputError(OIDC_MESSAGES.interactionGone);
    const grant = (details.grantId ? await oidc.Grant.find(details.grantId) : undefined) ?? new oidc.Grant({ accountId, clientId });
    grant.addOIDCScope(GRANTED_SCOPES);
    const grantId = await grant.save();
    return reply.redirect(await oidc.interactionResult(request.raw, reply.raw, { consent: { grantId } }, { mergeWithLastSubmission: true }), 303);
  });

  app.post<{ Params: { uid: string } }>(`${INTERACTION_PATH}/:uid/deny`, async (request, reply) => {
    const { oidc } = await interactionOf(request, reply);
    const result = { error: 'access_denied', error_description: 'The user did not allow the sign-in.' };
    return reply.redirect(await oidc.interactionResult(request.raw, reply.raw, result, { mergeWithLastSubmission: false }), 303);
  });
};
