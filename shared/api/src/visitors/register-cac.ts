import { closed, EmailText, Text } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { VISITOR_ERRORS } from './verification.js';
import { Type } from 'typebox';

/** Registers the smart card the browser presents; approved at once or queued, by configuration. */
export const registerCac = defineEndpoint({
  method: 'POST',
  path: '/cert/requests/authchange/token',
  access: 'public',
  limit: 'cac-registration',
  xsrf: false,
  summary: 'Registers the smart card presented for the address (Bearer code)',
  body: Type.Object({ email: EmailText, reason: Type.Optional(Text) }, closed),
  response: Type.Object({ ok: Type.Literal(true), code: Type.Literal(200), approved: Type.Boolean() }, closed),
  errors: VISITOR_ERRORS,
});
