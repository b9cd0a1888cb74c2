/**
 * New account requests (server/docs/self-service.md, "The account request"), public and exempt
 * from the anti-forgery check (spec section 7).
 */
import { Type, type Static } from 'typebox';
import { BotChallengeResponse, closed, EmailText, OkCode, Text } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { REQUEST_STATUSES } from '../requests/kinds.js';
import { VISITOR_ERRORS } from './verification.js';

const Field = Type.Optional(Text);

/** Every field optional: a missing one gets the spec's 'Please enter …' message in `fields`, as an empty one does. */
export const AccountRequest = Type.Object(
  {
    first_name: Field,
    last_name: Field,
    username: Field,
    email: Field,
    phone: Field,
    address: Type.Optional(Type.Object({ street: Field, city: Field, state: Field, zip: Field, country: Field }, closed)),
    company: Field,
    project: Field,
    reason: Field,
    supervisor: Type.Optional(Type.Object({ first_name: Field, last_name: Field, email: Field, phone: Field }, closed)),
    botChallengeResponse: Type.Optional(BotChallengeResponse),
  },
  closed,
);
export type AccountRequest = Static<typeof AccountRequest>;

const Submitted = Type.Object({ ok: Type.Literal(true), code: Type.Literal(200), id: Type.Integer() }, closed);

/** POST /requests/new: an account request for a website token. */
export const submitAccountRequest = defineEndpoint({
  method: 'POST',
  path: '/requests/new',
  access: 'public',
  xsrf: false,
  summary: 'Requests an account (website token)',
  body: AccountRequest,
  response: Submitted,
  errors: VISITOR_ERRORS,
});

/** POST /cert/requests/new: the same, with the applicant's smart card presented and kept with the request. */
export const submitCertificateAccountRequest = defineEndpoint({
  ...submitAccountRequest,
  path: '/cert/requests/new',
  summary: 'Requests an account with the smart card presented',
});

export const AccountRequestStatus = Type.Object(
  {
    status: Type.Enum(REQUEST_STATUSES),
    comment: Type.String(),
    username: Type.String(),
    /** The adjudicator asked for more information: the applicant must answer. */
    awaiting_response: Type.Boolean(),
  },
  closed,
);
export type AccountRequestStatus = Static<typeof AccountRequestStatus>;

/** POST /requests/new/status: the applicant's status check (Bearer code). */
export const getAccountRequestStatus = defineEndpoint({
  method: 'POST',
  path: '/requests/new/status',
  access: 'public',
  xsrf: false,
  summary: "The applicant's view of their account request (Bearer code)",
  body: Type.Object({ email: EmailText }, closed),
  response: AccountRequestStatus,
  errors: VISITOR_ERRORS,
});

/** POST /requests/new/pending: the applicant's answer to a request for more information (Bearer code). */
export const respondToAccountRequest = defineEndpoint({
  method: 'POST',
  path: '/requests/new/pending',
  access: 'public',
  xsrf: false,
  summary: "The applicant's answer to a request for more information (Bearer code)",
  body: Type.Object({ email: EmailText, username: EmailText, comment: Text }, closed),
  response: OkCode,
  errors: VISITOR_ERRORS,
});
