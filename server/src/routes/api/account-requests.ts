/**
 * New account requests (server/docs/self-service.md, "The account request"), public and exempt
 * from the anti-forgery check (spec section 7):
 *   POST /requests/new            with a website token
 *   POST /cert/requests/new       with the smart card presented (a verified client certificate)
 *   POST /requests/new/status     the applicant's status check (Bearer code)
 *   POST /requests/new/pending    the applicant's response to a request for more information (Bearer code)
 */
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { clientCertificate, isSecureRequest } from '../../plugins/security.js';
import { certificateDetails, isCurrentlyValid } from '../../services/certificates.js';
import {
  accountRequestStatus,
  respondToAccountRequest,
  STATUS_CHECK_PATH,
  submitAccountRequest,
  type AccountApplication,
} from '../../services/account-requests.js';
import type { SecuritySettings } from '../../services/security-context.js';
import { BotChallengeResponse, OkCode, Text, visitorErrors } from './verification.js';
import { bearerCode } from './bearer.js';

const Field = Type.Optional(Text);

/** Every field optional: a missing one gets the spec's 'Please enter …' message in `fields`, as an empty one does. */
const AccountRequestSchema = Type.Object(
  {
    first_name: Field,
    last_name: Field,
    username: Field,
    email: Field,
    phone: Field,
    address: Type.Optional(
      Type.Object({ street: Field, city: Field, state: Field, zip: Field, country: Field }, { additionalProperties: false }),
    ),
    company: Field,
    project: Field,
    reason: Field,
    supervisor: Type.Optional(
      Type.Object({ first_name: Field, last_name: Field, email: Field, phone: Field }, { additionalProperties: false }),
    ),
    botChallengeResponse: Type.Optional(BotChallengeResponse),
  },
  { additionalProperties: false },
);

const Submitted = Type.Object({ ok: Type.Literal(true), code: Type.Literal(200), id: Type.Integer() }, { additionalProperties: false });

const StatusBody = Type.Object(
  {
    status: Type.Union([Type.Literal('pending'), Type.Literal('incomplete'), Type.Literal('approved'), Type.Literal('denied')]),
    comment: Type.String(),
    username: Type.String(),
    awaiting_response: Type.Boolean(),
  },
  { additionalProperties: false },
);

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

  const options = {
    config: { access: 'public', xsrf: false },
    schema: { body: AccountRequestSchema, response: { 200: Submitted, ...visitorErrors } },
  } as const;
  app.post('/requests/new', options, submit(false));
  app.post('/cert/requests/new', options, submit(true));

  app.post(
    '/requests/new/status',
    {
      config: { access: 'public', xsrf: false },
      schema: {
        body: Type.Object({ email: Type.String({ maxLength: 1000 }) }, { additionalProperties: false }),
        response: { 200: StatusBody, ...visitorErrors },
      },
    },
    async (request) => accountRequestStatus(app.security, request.body.email, bearerCode(request)),
  );

  app.post(
    '/requests/new/pending',
    {
      config: { access: 'public', xsrf: false },
      schema: {
        body: Type.Object({ email: Type.String({ maxLength: 1000 }), username: Type.String({ maxLength: 1000 }), comment: Text }, { additionalProperties: false }),
        response: { 200: OkCode, ...visitorErrors },
      },
    },
    async (request) => {
      await respondToAccountRequest(app.security, { ...request.body, code: bearerCode(request) });
      return { ok: true as const, code: 200 as const };
    },
  );
};
