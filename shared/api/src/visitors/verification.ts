/**
 * The verification flow (server/docs/self-service.md, "The verification flow"), public and
 * exempt from the anti-forgery check (spec section 7). The code travels as `Authorization:
 * Bearer <code>` on every call after the first.
 */
import { Type } from 'typebox';
import { BotChallengeResponse, closed, EmailText, OkCode, Text } from '../common.js';
import { defineEndpoint } from '../endpoint.js';

/** What a visitor's call may answer besides 200. */
export const VISITOR_ERRORS = [401, 403, 404, 409, 429] as const;

/** Step one: mails a code to the address (if it belongs to an account or an account request). */
export const sendVerificationCode = defineEndpoint({
  method: 'POST',
  path: '/mail/verifywithbotchallenge',
  access: 'public',
  xsrf: false,
  summary: 'Mails a verification code to the address',
  body: Type.Object({ email: EmailText, botChallengeResponse: BotChallengeResponse }, closed),
  response: OkCode,
  errors: VISITOR_ERRORS,
});

/** Step two: is the code good for the address? botChallengeResponse is accepted and ignored: the code is the proof. */
export const verifyCode = defineEndpoint({
  method: 'POST',
  path: '/accounts/verifyrequestisvalid',
  access: 'public',
  xsrf: false,
  summary: 'Whether the verification code (Bearer) is good for the address',
  body: Type.Object({ email: EmailText, botChallengeResponse: Type.Optional(BotChallengeResponse) }, closed),
  response: OkCode,
  errors: VISITOR_ERRORS,
});

/** An unlock request for the address's locked account. */
export const requestUnlock = defineEndpoint({
  method: 'POST',
  path: '/requests/unlock',
  access: 'public',
  xsrf: false,
  summary: "Asks for the address's locked account to be unlocked (Bearer code)",
  body: Type.Object({ email: EmailText, reason: Text }, closed),
  response: OkCode,
  errors: VISITOR_ERRORS,
});

/** A new website token, shown once; the old one stops working. */
export const resetWebsiteToken = defineEndpoint({
  method: 'POST',
  path: '/accounts/credentials/reset',
  access: 'public',
  xsrf: false,
  summary: 'Generates a new website token (Bearer code); the old one stops working',
  body: Type.Object({ email: EmailText }, closed),
  response: Type.Object({ ok: Type.String() }, closed),
  errors: VISITOR_ERRORS,
});

/** Registers the smart card the browser presents; approved at once or queued, by configuration. */
export const registerCac = defineEndpoint({
  method: 'POST',
  path: '/cert/requests/authchange/token',
  access: 'public',
  xsrf: false,
  summary: 'Registers the smart card presented for the address (Bearer code)',
  body: Type.Object({ email: EmailText, reason: Type.Optional(Text) }, closed),
  response: Type.Object({ ok: Type.Literal(true), code: Type.Literal(200), approved: Type.Boolean() }, closed),
  errors: VISITOR_ERRORS,
});
