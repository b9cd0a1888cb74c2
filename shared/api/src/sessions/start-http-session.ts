import { OkTrue } from '../common.js';
import { defineEndpoint } from '../endpoint.js';

/** GET /sessions/httpsession: starts an anonymous session if needed. */
export const startHttpSession = defineEndpoint({
  method: 'GET',
  path: '/sessions/httpsession',
  access: 'public',
  limit: 'session-start',
  xsrf: false,
  summary: 'Starts an anonymous session if there is none',
  response: OkTrue,
});
