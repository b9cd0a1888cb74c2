import { closed, EmailText } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { VISITOR_ERRORS } from './verification.js';
import { Type } from 'typebox';

/** A new website token, shown once; the old one stops working. */
export const resetWebsiteToken = defineEndpoint({
  method: 'POST',
  path: '/accounts/credentials/reset',
  access: 'public',
  limit: 'token-reset',
  xsrf: false,
  summary: 'Generates a new website token (Bearer code); the old one stops working',
  body: Type.Object({ email: EmailText }, closed),
  response: Type.Object({ ok: Type.String() }, closed),
  errors: VISITOR_ERRORS,
});
