import { closed, OkCode } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { Type } from 'typebox';

/** From the smart card to a website token; the reason carries the government sponsor (withSponsor in rules.ts). */
export const requestTokenAuthentication = defineEndpoint({
  method: 'POST',
  path: '/requests/authchange',
  access: { permission: 'allow-authchange' },
  summary: 'Asks to sign in with a website token instead of the smart card',
  body: Type.Object({ reason: Type.String({ maxLength: 2000 }), authentication: Type.Array(Type.Literal('token'), { minItems: 1, maxItems: 1 }) }, closed),
  response: OkCode,
  errors: [404, 409],
});
