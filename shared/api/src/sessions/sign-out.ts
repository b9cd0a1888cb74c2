import { OkTrue } from '../common.js';
import { defineEndpoint } from '../endpoint.js';

/** GET /sessions/logout: ends the session. */
export const signOut = defineEndpoint({
  method: 'GET',
  path: '/sessions/logout',
  access: 'public',
  summary: 'Ends the session',
  response: OkTrue,
});
