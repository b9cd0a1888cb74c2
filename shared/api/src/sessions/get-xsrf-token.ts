import { closed } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { Type } from 'typebox';

/** GET /xsrf: the caller's anti-forgery token (starts an anonymous session if needed). */
export const getXsrfToken = defineEndpoint({
  method: 'GET',
  path: '/xsrf',
  access: 'public',
  limit: 'session-start',
  xsrf: false,
  summary: "The caller's anti-forgery token, sent back as X-XSRF-TOKEN",
  response: Type.Object({ ok: Type.String() }, closed),
});
