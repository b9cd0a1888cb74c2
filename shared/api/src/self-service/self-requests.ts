/**
 * Requests a signed-in user makes about their own account (server/docs/self-service.md, "Signed
 * in" and "Renewal"): an email change (also by a surrogate), the email-exists check, an
 * authentication change either way, and the annual renewal.
 */
import { Type } from 'typebox';
import { closed, OkCode, OkTrue } from '../common.js';
import { defineEndpoint } from '../endpoint.js';

/** 200 when an account or an open request uses the address, else 404. */
export const emailExists = defineEndpoint({
  method: 'GET',
  path: '/requests/profilechange/email-exists',
  access: 'session',
  summary: 'Whether an account or an open request uses an address (200), or not (404)',
  query: Type.Object({ email: Type.String({ maxLength: 320 }) }, closed),
  response: OkTrue,
  errors: [404],
});

/** An email change: the signed-in user's own, or another's (a surrogate request). */
export const requestEmailChange = defineEndpoint({
  method: 'POST',
  path: '/requests/profilechange',
  access: 'session',
  summary: "Asks for an account's email to change (own, or as a surrogate)",
  body: Type.Object(
    {
      username: Type.String({ minLength: 1, maxLength: 255 }),
      // Optional so that a missing one gets the spec's message from the rules.
      email: Type.Optional(Type.String({ maxLength: 320 })),
      reason: Type.Optional(Type.String({ maxLength: 2000 })),
    },
    closed,
  ),
  response: OkCode,
  errors: [404, 409],
});

/** From the smart card to a website token; the reason carries the government sponsor (withSponsor in rules.ts). */
export const requestTokenAuthentication = defineEndpoint({
  method: 'POST',
  path: '/requests/authchange',
  access: { permission: 'allow-authchange' },
  summary: 'Asks to sign in with a website token instead of the smart card',
  body: Type.Object({ reason: Type.String({ maxLength: 2000 }), authentication: Type.Array(Type.Literal('token'), { minItems: 1, maxItems: 1 }) }, closed),
  response: OkCode,
  errors: [404, 409],
});

/** From a website token to the smart card the browser presents with the call. */
export const requestCertificateAuthentication = defineEndpoint({
  method: 'POST',
  path: '/cert/requests/authchange',
  access: { permission: 'allow-authchange' },
  summary: 'Asks to sign in with the smart card presented instead of the website token',
  body: Type.Object(
    { reason: Type.String({ maxLength: 2000 }), authentication: Type.Array(Type.Literal('certificate'), { minItems: 1, maxItems: 1 }) },
    closed,
  ),
  response: OkCode,
  errors: [404, 409],
});

/** 'Reason optional' is sent for a change to CAC without a reason (spec section 5). */
export const REASON_OPTIONAL = 'Reason optional';

/** The annual certification; answers while the account must renew. */
export const requestRenewal = defineEndpoint({
  method: 'POST',
  path: '/requests/renewal',
  access: { permission: 'RENEW_ACCOUNT' },
  summary: 'Certifies the account for another year',
  body: Type.Object({ username: Type.String({ minLength: 1, maxLength: 255 }), reason: Type.String({ maxLength: 2000 }) }, closed),
  response: OkCode,
  errors: [404, 409],
});

/** The reason the renewal sends (spec section 9). */
export const RENEWAL_REASON = 'Certifying';
