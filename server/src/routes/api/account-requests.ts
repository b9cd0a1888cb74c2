/**
 * New account requests (server/docs/self-service.md, "The account request"), public and exempt
 * from the anti-forgery check (spec section 7):
 *   POST /requests/new            with a website token
 *   POST /cert/requests/new       with the smart card presented (a verified client certificate)
 *   POST /requests/new/status     the applicant's status check (Bearer code)
 *   POST /requests/new/pending    the applicant's response to a request for more information (Bearer code)
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import * as api from '@portal/api';
import type { FastifyRequest } from 'fastify';
import { isSecureRequest } from '../../plugins/request-origin.js';
import { clientCertificate } from '../../plugins/security.js';
import { certificateDetails, isCurrentlyValid } from '../../services/certificates.js';
import {
  accountRequestStatus,
  respondToAccountRequest,
  STATUS_CHECK_PATH,
  submitAccountRequest,
  type AccountApplication,
} from '../../services/account-requests.js';
import type { SecuritySettings } from '../../services/security-context.js';
import { endpointRoute } from './endpoint-route.js';
import { bearerCode } from './bearer.js';

const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$/;

/**
 * The portal's address for links in mail: PORTAL_PUBLIC_URL when set, else the request's
 * scheme (TLS, or a trusted proxy's X-Forwarded-Proto) and Host header. A Host that is not a
 * plain host name leaves the link relative.
 */
export function publicBaseUrl(request: FastifyRequest, settings: SecuritySettings): string {
  if (settings.publicUrl !== undefined) return settings.publicUrl;
  const host = request.headers.host;
  if (typeof host !== 'string' || !HOST.test(host)) return '';
  return `${isSecureRequest(request, settings) ? 'https' : 'http'}://${host.toLowerCase()}`;
}

export const accountRequestRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const submit = (withCertificate: boolean) => async (request: FastifyRequest<{ Body: AccountApplication & { botChallengeResponse?: string } }>) => {
    const certificate = withCertificate ? clientCertificate(request, app.security.settings) : undefined;
    const usable = certificate && isCurrentlyValid(certificate, app.security.clock.now()) ? certificateDetails(certificate) : undefined;
    const { botChallengeResponse, ...application } = request.body;
    const id = await submitAccountRequest(app.security, application, {
      botChallengeResponse,
      withCertificate,
      certificate: usable,
      statusPageUrl: `${publicBaseUrl(request, app.security.settings)}${STATUS_CHECK_PATH}`,
    });
    return { ok: true as const, code: 200 as const, id };
  };

  app.route({ ...endpointRoute(api.submitAccountRequest), handler: submit(false) });
  app.route({ ...endpointRoute(api.submitCertificateAccountRequest), handler: submit(true) });

  app.route({
    ...endpointRoute(api.getAccountRequestStatus),
    handler: async (request) => accountRequestStatus(app.security, request.body.email, bearerCode(request)),
  });

  app.route({
    ...endpointRoute(api.respondToAccountRequest),
    handler: async (request) => {
      await respondToAccountRequest(app.security, { ...request.body, code: bearerCode(request) });
      return { ok: true as const, code: 200 as const };
    },
  });
};
