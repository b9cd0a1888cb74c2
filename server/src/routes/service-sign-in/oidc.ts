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
import { clientAddress, isFromTrustedProxy } from '../../plugins/request-origin.js';
import { endSessionForProviderSignOut } from '../../plugins/security.js';
import { clientKey, limitKey, RATE_LIMIT_MESSAGES } from '../../services/rate-limits.js';
import { boundService, decideOidcSignIn } from '../../services/service-sign-in/oidc/accounts.js';
import { hashedBasicAuthorization } from '../../services/service-sign-in/oidc/clients.js';
import { consentPage, pagePolicy } from '../../services/service-sign-in/oidc/pages.js';
import { endOidcSignIns, hasOidcSignIns } from '../../services/service-sign-in/oidc/sign-out.js';
import { KEY_CHECK_SECONDS, newestSigningGeneration } from '../../services/service-sign-in/oidc/keys.js';
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

export const oidcRoutes: FastifyPluginAsync = async (app) => {
  const requests = new WeakMap<IncomingMessage, FastifyRequest>();
  interface Current {
    provider: Provider;
    handle: ReturnType<Provider['callback']>;
    /** The newest key generation it publishes. */
    generation: number;
    /** When a key it publishes starts signing (it is built again then). */
    activatesAt?: Date;
  }
  let provider: Promise<Current> | undefined;
  /** When the newest key generation was last read (app.security.clock), in ms. */
  let keysCheckedAt = 0;
  const build = () => {
    const building = (async (): Promise<Current> => {
      const { provider: created, generation, activatesAt } = await createOidcProvider({
        db: app.security.db,
        issuer: issuerOf(app),
        cookieKey: await app.security.secret('oidc-cookies'),
        portalSession: async (req) => requests.get(req)?.portalSession(),
        sessionSeconds: app.security.settings.sessionAbsoluteHours * 3600,
        now: app.security.clock.now(),
        endPortalSession: async (req) => {
          const request = requests.get(req);
          return request ? endSessionForProviderSignOut(request) : [];
        },
        portalHome: `${issuerOf(app).slice(0, -OIDC_PATH.length)}/`,
      });
      // X-Forwarded-* reach it only from a trusted proxy (they are taken off the others' requests).
      created.proxy = true;
      created.on('server_error', (_ctx, error) => app.log.error({ err: error }, 'the OpenID provider failed to answer a request'));
      return { provider: created, handle: created.callback(), generation, ...(activatesAt ? { activatesAt } : {}) };
    })();
    // A failure (the database down) is not remembered: the next request tries again.
    building.catch(() => {
      if (provider === building) provider = undefined;
    });
    return building;
  };
  /**
   * The provider; built again (with the keys then published) when the newest key generation is not
   * the newest it publishes, or a key it publishes starts signing. The newest generation is read at
   * most every KEY_CHECK_SECONDS, so a server publishes the key of an `oidc-keys rotate` within
   * that (keys.ts); everything else the provider keeps is in the database.
   */
  const providerOf = async (): Promise<Current> => {
    const now = app.security.clock.now().getTime();
    if (provider === undefined) {
      keysCheckedAt = now;
      provider = build();
      return provider;
    }
    const current = provider;
    const built = await current;
    let stale = built.activatesAt !== undefined && built.activatesAt.getTime() <= now;
    if (!stale && now - keysCheckedAt >= KEY_CHECK_SECONDS * 1000) {
      keysCheckedAt = now;
      stale = (await newestSigningGeneration(app.security.db)) !== built.generation;
    }
    if (stale && provider === current) {
      keysCheckedAt = now;
      provider = build();
    }
    return provider ?? current;
  };

  // An account's sign-ins on the portal ended (a sign-out, Sign Out Everywhere, a lock, a closure):
  // so do its sign-ins to the relying parties (services/service-sign-in/oidc/sign-out.ts). The
  // provider is built only when the account has any.
  const stopListening = app.security.signOuts.listen(async (signOut) => {
    try {
      if (!(await hasOidcSignIns(app.security.db, signOut.accountId))) return;
      const { provider: current } = await providerOf();
      const ended = await endOidcSignIns(
        {
          provider: current,
          db: app.security.db,
          cookieKey: await app.security.secret('oidc-cookies'),
          // The message only: the error of a refused delivery carries the response (and its request, the token).
          onDeliveryError: (error, clientId) =>
            app.log.warn({ clientId, reason: error instanceof Error ? error.message : String(error) }, 'a back-channel logout token could not be delivered'),
        },
        signOut,
      );
      if (ended.sessions + ended.grants > 0) app.log.info({ accountId: signOut.accountId, reason: signOut.reason, ...ended }, 'sign-ins to services ended');
    } catch (error) {
      app.log.error({ err: error, accountId: signOut.accountId }, "the account's sign-ins to services could not be ended");
      throw error;
    }
  });
  app.addHook('onClose', async () => stopListening());

  // The provider reads its requests' bodies itself: nothing here parses (or reads) them.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));

  // The token endpoint's limit (oidc-token): @fastify/rate-limit on the database's store, as the
  // visitors' calls (plugins/security.ts), counted here because only that path of the provider's counts.
  const tokenSettings = app.security.settings.rateLimits['oidc-token'];
  const tokenLimit =
    tokenSettings === undefined
      ? undefined
      : app.createRateLimit({
          max: tokenSettings.max,
          timeWindow: tokenSettings.windowSeconds * 1000,
          keyGenerator: (request) => limitKey('oidc-token', clientKey(clientAddress(request, app.security.settings))),
        });

  app.route({
    method: ['GET', 'POST', 'OPTIONS'],
    url: `${OIDC_PATH}/*`,
    handler: async (request, reply) => {
      const raw = request.raw;
      // The token endpoint counts its calls per client address before the provider does any work
      // (a client's secret is checked there): 429 with Retry-After, in the protocol's error form.
      if (tokenLimit !== undefined && request.method === 'POST' && (raw.url ?? '').split('?')[0] === TOKEN_PATH) {
        const counted = await tokenLimit(request);
        if (!counted.isAllowed && counted.isExceeded) {
          const seconds = Math.max(1, counted.ttlInSeconds);
          return reply
            .code(429)
            .header('retry-after', String(seconds))
            .header('cache-control', 'no-store')
            .send({ error: 'temporarily_unavailable', error_description: RATE_LIMIT_MESSAGES.tooManyFromAddress(seconds) });
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
    const action = (what: string) => `${INTERACTION_PATH}/${encodeURIComponent(details.uid)}/${what}`;
    const html = consentPage(String(client?.metadata()['client_name'] ?? details.params['client_id']), action('allow'), action('deny'));
    // Allow and Deny end in a redirect to the client's redirect URI (the provider checked it is
    // one the client registered): the policy lets the forms' answers go there.
    const redirectUri = details.params['redirect_uri'];
    reply.header('content-security-policy', pagePolicy(html, typeof redirectUri === 'string' ? redirectUri : undefined));
    return reply.type('text/html; charset=utf-8').send(html);
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
