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
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBody } from '../../errors.js';
import { clientCertificate } from '../../plugins/security.js';
import { certificateDetails, isCurrentlyValid } from '../../services/certificates.js';
import {
  registerCertificate,
  requestUnlock,
  resetWebsiteToken,
  sendVerificationCode,
  verifyRequestIsValid,
} from '../../services/verification.js';
import { bearerCode } from './bearer.js';

export const OkCode = Type.Object({ ok: Type.Literal(true), code: Type.Literal(200) }, { additionalProperties: false });
const ok = { ok: true as const, code: 200 as const };

/** The bot challenge's payload: as POST /sessions takes it. */
export const BotChallengeResponse = Type.String({ maxLength: 8192 });
/** An address as typed (the rules check it); bounded only against abuse. */
const Email = Type.String({ maxLength: 1000 });
/** Free text checked by the rules (which give the spec's length messages); bounded only against abuse. */
export const Text = Type.String({ maxLength: 100_000 });

export const visitorErrors = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  409: ErrorBody,
  429: ErrorBody,
  500: ErrorBody,
} as const;

export const verificationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/mail/verifywithbotchallenge',
    {
      config: { access: 'public', xsrf: false },
      schema: {
        body: Type.Object({ email: Email, botChallengeResponse: BotChallengeResponse }, { additionalProperties: false }),
        response: { 200: OkCode, ...visitorErrors },
      },
    },
    async (request) => {
      await sendVerificationCode(app.security, request.body);
      return ok;
    },
  );

  app.post(
    '/accounts/verifyrequestisvalid',
    {
      config: { access: 'public', xsrf: false },
      schema: {
        // botChallengeResponse is accepted and ignored: the code is the proof (each challenge is accepted once).
        body: Type.Object({ email: Email, botChallengeResponse: Type.Optional(BotChallengeResponse) }, { additionalProperties: false }),
        response: { 200: OkCode, ...visitorErrors },
      },
    },
    async (request) => {
      await verifyRequestIsValid(app.security, request.body.email, bearerCode(request));
      return ok;
    },
  );

  app.post(
    '/requests/unlock',
    {
      config: { access: 'public', xsrf: false },
      schema: {
        body: Type.Object({ email: Email, reason: Text }, { additionalProperties: false }),
        response: { 200: OkCode, ...visitorErrors },
      },
    },
    async (request) => {
      await requestUnlock(app.security, { ...request.body, code: bearerCode(request) });
      return ok;
    },
  );

  app.post(
    '/accounts/credentials/reset',
    {
      config: { access: 'public', xsrf: false },
      schema: {
        body: Type.Object({ email: Email }, { additionalProperties: false }),
        response: { 200: Type.Object({ ok: Type.String() }, { additionalProperties: false }), ...visitorErrors },
      },
    },
    async (request) => ({ ok: await resetWebsiteToken(app.security, { email: request.body.email, code: bearerCode(request) }) }),
  );

  app.post(
    '/cert/requests/authchange/token',
    {
      config: { access: 'public', xsrf: false },
      schema: {
        body: Type.Object({ email: Email, reason: Type.Optional(Text) }, { additionalProperties: false }),
        response: {
          200: Type.Object({ ok: Type.Literal(true), code: Type.Literal(200), approved: Type.Boolean() }, { additionalProperties: false }),
          ...visitorErrors,
        },
      },
    },
    async (request) => {
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
  );
};
