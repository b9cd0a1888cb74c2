import { BotChallengeResponse, closed, EmailText, OkCode } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { VISITOR_ERRORS } from './verification.js';
import { Type } from 'typebox';

/** Step one: mails a code to the address (if it belongs to an account or an account request). */
export const sendVerificationCode = defineEndpoint({
  method: 'POST',
  path: '/mail/verifywithbotchallenge',
  access: 'public',
  limit: 'verification-mail',
  xsrf: false,
  summary: 'Mails a verification code to the address',
  body: Type.Object({ email: EmailText, botChallengeResponse: BotChallengeResponse }, closed),
  response: OkCode,
  errors: VISITOR_ERRORS,
});
