import { closed, EmailText, OkCode, Text } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { VISITOR_ERRORS } from './verification.js';
import { Type } from 'typebox';

/** An unlock request for the address's locked account. */
export const requestUnlock = defineEndpoint({
  method: 'POST',
  path: '/requests/unlock',
  access: 'public',
  limit: 'unlock',
  xsrf: false,
  summary: "Asks for the address's locked account to be unlocked (Bearer code)",
  body: Type.Object({ email: EmailText, reason: Text }, closed),
  response: OkCode,
  errors: VISITOR_ERRORS,
});
