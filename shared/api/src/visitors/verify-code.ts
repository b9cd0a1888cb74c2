import { BotChallengeResponse, closed, EmailText, OkCode } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { VISITOR_ERRORS } from './verification.js';
import { Type } from 'typebox';

/** Step two: is the code good for the address? botChallengeResponse is accepted and ignored: the code is the proof. */
export const verifyCode = defineEndpoint({
  method: 'POST',
  path: '/accounts/verifyrequestisvalid',
  access: 'public',
  limit: 'status-check',
  xsrf: false,
  summary: 'Whether the verification code (Bearer) is good for the address',
  body: Type.Object({ email: EmailText, botChallengeResponse: Type.Optional(BotChallengeResponse) }, closed),
  response: OkCode,
  errors: VISITOR_ERRORS,
});
