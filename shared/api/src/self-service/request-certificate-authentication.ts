import { closed, OkCode } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { Type } from 'typebox';

/** From a website token to the smart card the browser presents with the call. */
export const requestCertificateAuthentication = defineEndpoint({
  method: 'POST',
  path: '/cert/requests/authchange',
  access: { permission: 'allow-authchange' },
  summary: 'Asks to sign in with the smart card presented instead of the website token',
  body: Type.Object(
    { reason: Type.String({ maxLength: 2000 }), authentication: Type.Array(Type.Literal('certificate'), { minItems: 1, maxItems: 1 }) },
    closed,
  ),
  response: OkCode,
  errors: [404, 409],
});
