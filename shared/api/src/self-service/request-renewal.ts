import { closed, OkCode } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { Type } from 'typebox';

/** The annual certification; answers while the account must renew. */
export const requestRenewal = defineEndpoint({
  method: 'POST',
  path: '/requests/renewal',
  access: { permission: 'RENEW_ACCOUNT' },
  summary: 'Certifies the account for another year',
  body: Type.Object({ username: Type.String({ minLength: 1, maxLength: 255 }), reason: Type.String({ maxLength: 2000 }) }, closed),
  response: OkCode,
  errors: [404, 409],
});
