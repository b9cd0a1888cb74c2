/**
 * Requests a signed-in user makes about their own account (server/docs/self-service.md, "Signed in"):
 *   GET  /requests/profilechange/email-exists?email=   200 { ok: true } when in use, else 404 (CHANGE_EMAIL or SUBMIT_SURROGATE_REQUEST)
 *   POST /requests/profilechange                      { username, email, reason } an email change (own, or as a surrogate)
 *   POST /requests/authchange                         { reason, authentication: ['token'] } smart card → website token
 *   POST /cert/requests/authchange                    { reason, authentication: ['certificate'] } website token → the card presented
 *   POST /requests/renewal                            { username, reason } the annual certification (answers during renewal)
 */
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBody, InvalidInputError, NotFoundError } from '../../errors.js';
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
import { selfServiceContext, signedInAccount } from './signed-in.js';

const closed = { additionalProperties: false } as const;
const OkCode = Type.Object({ ok: Type.Literal(true), code: Type.Literal(200) }, closed);
const OkTrue = Type.Object({ ok: Type.Literal(true) }, closed);

const EmailQuery = Type.Object({ email: Type.String({ maxLength: 320 }) }, closed);
const EmailChangeBody = Type.Object(
  {
    username: Type.String({ minLength: 1, maxLength: 255 }),
    // Optional so that a missing one gets the spec's message from the rules.
    email: Type.Optional(Type.String({ maxLength: 320 })),
    reason: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  closed,
);
const ToTokenBody = Type.Object(
  {
    reason: Type.String({ maxLength: 2000 }),
    authentication: Type.Array(Type.Literal('token'), { minItems: 1, maxItems: 1 }),
  },
  closed,
);
const ToCertificateBody = Type.Object(
  {
    reason: Type.String({ maxLength: 2000 }),
    authentication: Type.Array(Type.Literal('certificate'), { minItems: 1, maxItems: 1 }),
  },
  closed,
);
const RenewalBody = Type.Object(
  { username: Type.String({ minLength: 1, maxLength: 255 }), reason: Type.String({ maxLength: 2000 }) },
  closed,
);

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody, 500: ErrorBody } as const;
const ok = { ok: true as const, code: 200 as const };

export const selfRequestRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/requests/profilechange/email-exists',
    { config: { access: 'session' }, schema: { querystring: EmailQuery, response: { 200: OkTrue, ...errors } } },
    async (request) => {
      if (!(await emailExists(selfServiceContext(app), await signedInAccount(request), request.query.email))) {
        throw new NotFoundError(SELF_SERVICE_MESSAGES.notFound);
      }
      return { ok: true as const };
    },
  );

  app.post(
    '/requests/profilechange',
    { config: { access: 'session' }, schema: { body: EmailChangeBody, response: { 200: OkCode, ...errors } } },
    async (request) => {
      await requestEmailChange(selfServiceContext(app), await signedInAccount(request), request.body);
      return ok;
    },
  );

  app.post(
    '/requests/authchange',
    { config: { permission: 'allow-authchange' }, schema: { body: ToTokenBody, response: { 200: OkCode, ...errors } } },
    async (request) => {
      await requestAuthChangeToToken(selfServiceContext(app), await signedInAccount(request), request.body);
      return ok;
    },
  );

  app.post(
    '/cert/requests/authchange',
    { config: { permission: 'allow-authchange' }, schema: { body: ToCertificateBody, response: { 200: OkCode, ...errors } } },
    async (request) => {
      const certificate = clientCertificate(request, app.security.settings);
      if (!certificate || !isCurrentlyValid(certificate, app.security.clock.now())) throw new InvalidInputError(MESSAGES.noCertificate);
      await requestAuthChangeToCertificate(selfServiceContext(app), await signedInAccount(request), request.body, certificateDetails(certificate));
      return ok;
    },
  );

  app.post(
    '/requests/renewal',
    {
      config: { permission: 'RENEW_ACCOUNT', duringRenewal: true },
      schema: { body: RenewalBody, response: { 200: OkCode, ...errors } },
    },
    async (request) => {
      await renewAccount(selfServiceContext(app), await signedInAccount(request), request.body);
      return ok;
    },
  );
};
