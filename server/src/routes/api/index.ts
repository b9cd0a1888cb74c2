/** The API under /accounts/rest. Every route here declares its access (see plugins/route-access.ts). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { configurationRoutes } from './configuration.js';
import { challengeRoutes } from './challenge.js';
import { healthRoutes } from './health.js';
import { requestRoutes } from './requests.js';
import { sessionRoutes } from './sessions.js';
import { verificationRoutes } from './verification.js';
import { accountRequestRoutes } from './account-requests.js';
import { accountRoutes } from './accounts.js';
import { accountAdminRoutes } from './account-admin.js';
import { selfRequestRoutes } from './self-requests.js';
import { subscriptionRoutes } from './subscriptions.js';
import { groupRoutes } from './groups.js';
import { tokenRoutes } from './tokens.js';
import { mailingListRoutes } from './mailing-lists.js';
import { federationRoutes } from './federation.js';
import { provisioningRoutes } from '../provisioning/index.js';
import { forwardAuthRoutes } from '../service-sign-in/forward-auth.js';
import { serviceSignInRoutes } from '../service-sign-in/sign-ins.js';
import { NotFoundError } from '../../errors.js';
import { MESSAGES } from '../../messages.js';
import { API_PREFIX } from '../../plugins/route-access.js';

/**
 * The routes that exist only with cac_support: the smart-card routes (sign-in, registration,
 * card requests) and the authentication changes between card and token (the request and its
 * queue: spec section 2 lists /list-authentication-change-requests as 'CAC support only').
 */
function needsSmartCards(url: string | undefined): boolean {
  if (url === undefined) return false;
  const authChange = `${API_PREFIX}/requests/authchange`;
  return url.startsWith(`${API_PREFIX}/cert/`) || url === authChange || url.startsWith(`${authChange}/`);
}

export const apiRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Answers of the API are about one caller at one moment: never stored by caches. (These hooks
  // are synchronous: an async one costs every call a promise and a turn of the microtask queue.)
  app.addHook('onRequest', (_request, reply, done) => {
    reply.header('cache-control', 'no-store');
    done();
  });
  // Without smart-card support the screens offer no card and no authentication change; the
  // server refuses those routes too (before any access check: as if they were not there).
  if (!app.portalConfig.cac_support) {
    app.addHook('onRequest', (request, _reply, done) => {
      done(needsSmartCards(request.routeOptions.url) ? new NotFoundError(MESSAGES.smartCardsOff) : undefined);
    });
  }
  await app.register(configurationRoutes);
  await app.register(healthRoutes);
  await app.register(sessionRoutes);
  await app.register(challengeRoutes);
  await app.register(requestRoutes);
  await app.register(verificationRoutes);
  await app.register(accountRequestRoutes);
  await app.register(accountRoutes);
  await app.register(subscriptionRoutes);
  await app.register(selfRequestRoutes);
  await app.register(groupRoutes);
  await app.register(accountAdminRoutes);
  await app.register(tokenRoutes);
  await app.register(mailingListRoutes);
  await app.register(federationRoutes);
  await app.register(provisioningRoutes);
  await app.register(forwardAuthRoutes);
  await app.register(serviceSignInRoutes);
};
