/**
 * The verification flow (server/docs/self-service.md, "The verification flow"), public and
 * exempt from the anti-forgery check (spec section 7); the code travels as `Authorization:
 * Bearer <code>`:
 *   POST /mail/verifywithbotchallenge        step 1: mail a code
 *   POST /accounts/verifyrequestisvalid      step 2: is the code good for the address?
 *   POST /requests/unlock                    an unlock request for the address's locked account
 *   POST /accounts/credentials/reset         a new website token
 *   POST /cert/requests/authchange/token     register the smart card presented
 * (The account request's status check and response are in account-requests.ts.)
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import * as api from '@portal/api';
import { clientCertificate } from '../../plugins/security.js';
import { certificateDetails, isCurrentlyValid } from '../../services/certificates.js';
import {
  registerCertificate,
  requestUnlock,
  resetWebsiteToken,
  sendVerificationCode,
  verifyRequestIsValid,
} from '../../services/verification.js';
import { endpointRoute } from './endpoint-route.js';
import { bearerCode } from './bearer.js';

const ok = { ok: true as const, code: 200 as const };

export const verificationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.route({
    ...endpointRoute(api.sendVerificationCode),
    handler: async (request) => {
      await sendVerificationCode(app.security, request.body);
      return ok;
    },
  });

  app.route({
    ...endpointRoute(api.verifyCode),
    handler: async (request) => {
      await verifyRequestIsValid(app.security, request.body.email, bearerCode(request));
      return ok;
    },
  });

  app.route({
    ...endpointRoute(api.requestUnlock),
    handler: async (request) => {
      await requestUnlock(app.security, { ...request.body, code: bearerCode(request) });
      return ok;
    },
  });

  app.route({
    ...endpointRoute(api.resetWebsiteToken),
    handler: async (request) => ({ ok: await resetWebsiteToken(app.security, { email: request.body.email, code: bearerCode(request) }) }),
  });

  app.route({
    ...endpointRoute(api.registerCac),
    handler: async (request) => {
      const certificate = clientCertificate(request, app.security.settings);
      const usable = certificate && isCurrentlyValid(certificate, app.security.clock.now()) ? certificateDetails(certificate) : undefined;
      const approved = await registerCertificate(app.security, {
        email: request.body.email,
        reason: request.body.reason,
        code: bearerCode(request),
        certificate: usable,
        autoApprove: app.portalConfig.auto_cert_registration_approval,
      });
      return { ...ok, approved };
    },
  });
};
