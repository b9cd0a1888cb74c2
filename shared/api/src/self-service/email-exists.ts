import { closed, OkTrue } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { Type } from 'typebox';

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
