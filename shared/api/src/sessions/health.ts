/** GET /health: is the server up and its database answering? Public. */
import { Type } from 'typebox';
import { closed } from '../common.js';
import { defineEndpoint } from '../endpoint.js';

export const getHealth = defineEndpoint({
  method: 'GET',
  path: '/health',
  access: 'public',
  xsrf: false,
  summary: 'Whether the server and its database answer (503 when the database does not)',
  response: Type.Object({ status: Type.Literal('ok'), database: Type.Literal('ok') }, closed),
  errors: [503],
});
