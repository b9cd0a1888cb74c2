/**
 * Requests a signed-in user makes about their own account (server/docs/self-service.md, "Signed in"):
 *   GET  /requests/profilechange/email-exists?email=   200 { ok: true } when in use, else 404 (CHANGE_EMAIL or SUBMIT_SURROGATE_REQUEST)
 *   POST /requests/profilechange                      { username, email, reason } an email change (own, or as a surrogate)
 *   POST /requests/authchange                         { reason, authentication: ['token'] } smart card → website token
 *   POST /cert/requests/authchange                    { reason, authentication: ['certificate'] } website token → the card presented
 *   POST /requests/renewal                            { username, reason } the annual certification (answers during renewal)
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import * as api from '@portal/api';
import { InvalidInputError, NotFoundError } from '../../errors.js';
import { MESSAGES } from '../../messages.js';
import { clientCertificate } from '../../plugins/security.js';
import { SELF_SERVICE_MESSAGES } from '../../self-service-messages.js';
import { renewAccount } from '../../services/accounts.js';
import { certificateDetails, isCurrentlyValid } from '../../services/certificates.js';
import {
  emailExists,
  requestAuthChangeToCertificate,
  requestAuthChangeToToken,
  requestEmailChange,
} from '../../services/self-requests.js';
import { endpointRoute } from './endpoint-route.js';
import { selfServiceContext, signedInAccount } from './signed-in.js';

const ok = { ok: true as const, code: 200 as const };

export const selfRequestRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.route({
    ...endpointRoute(api.emailExists),
    handler: async (request) => {
      if (!(await emailExists(selfServiceContext(app), await signedInAccount(request), request.query.email))) {
        throw new NotFoundError(SELF_SERVICE_MESSAGES.notFound);
      }
      return { ok: true as const };
    },
  });

  app.route({
    ...endpointRoute(api.requestEmailChange),
    handler: async (request) => {
      await requestEmailChange(selfServiceContext(app), await signedInAccount(request), request.body);
      return ok;
    },
  });

  app.route({
    ...endpointRoute(api.requestTokenAuthentication),
    handler: async (request) => {
      await requestAuthChangeToToken(selfServiceContext(app), await signedInAccount(request), request.body);
      return ok;
    },
  });

  app.route({
    ...endpointRoute(api.requestCertificateAuthentication),
    handler: async (request) => {
      const certificate = clientCertificate(request, app.security.settings);
      if (!certificate || !isCurrentlyValid(certificate, app.security.clock.now())) throw new InvalidInputError(MESSAGES.noCertificate);
      await requestAuthChangeToCertificate(selfServiceContext(app), await signedInAccount(request), request.body, certificateDetails(certificate));
      return ok;
    },
  });

  app.route({
    ...endpointRoute(api.requestRenewal, { duringRenewal: true }),
    handler: async (request) => {
      await renewAccount(selfServiceContext(app), await signedInAccount(request), request.body);
      return ok;
    },
  });
};
