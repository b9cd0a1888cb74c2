import { closed, EmailText, OkCode, Text } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { VISITOR_ERRORS } from './verification.js';
import { Type } from 'typebox';

/** POST /requests/new/pending: the applicant's answer to a request for more information (Bearer code). */
export const respondToAccountRequest = defineEndpoint({
  method: 'POST',
  path: '/requests/new/pending',
  access: 'public',
  limit: 'account-request',
  xsrf: false,
  summary: "The applicant's answer to a request for more information (Bearer code)",
  body: Type.Object({ email: EmailText, username: EmailText, comment: Text }, closed),
  response: OkCode,
  errors: VISITOR_ERRORS,
});
