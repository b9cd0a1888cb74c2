import { defineEndpoint } from '../endpoint.js';
import { SessionBody } from './sessions.js';

/** GET /sessions/current: the signed-in user; 401 when nobody is. Answers during renewal too. */
export const getCurrentSession = defineEndpoint({
  method: 'GET',
  path: '/sessions/current',
  access: 'session',
  summary: 'The signed-in user and their permissions',
  response: SessionBody,
});
