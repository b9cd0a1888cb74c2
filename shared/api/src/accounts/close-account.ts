import { closed } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { Account } from './account.js';
import { Type } from 'typebox';

/** POST /requests/close { username, reason }: the account is closed (reason required). */
export const closeAccount = defineEndpoint({
  method: 'POST',
  path: '/requests/close',
  access: { permission: 'SUBMIT_SURROGATE_REQUEST' },
  summary: 'Closes an account; its sessions end and its open requests are denied',
  body: Type.Object({ username: Type.String({ minLength: 1, maxLength: 255 }), reason: Type.Optional(Type.String({ maxLength: 2000 })) }, closed),
  response: Account,
  errors: [404, 409],
});
