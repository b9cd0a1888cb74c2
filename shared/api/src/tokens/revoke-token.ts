import { OkTrue } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { TokenIdParams } from './tokens.js';

/** DELETE /tokens/{id}: revoke one of the caller's tokens; 404 for another's or an unknown one, 409 when it is not revocable. */
export const revokeToken = defineEndpoint({
  method: 'DELETE',
  path: '/tokens/:id',
  access: 'session',
  summary: "Revoke one of the caller's tokens",
  params: TokenIdParams,
  response: OkTrue,
  errors: [404, 409, 503],
});
