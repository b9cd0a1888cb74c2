import { closed, OkCode } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { Type } from 'typebox';

/** An email change: the signed-in user's own, or another's (a surrogate request). */
export const requestEmailChange = defineEndpoint({
  method: 'POST',
  path: '/requests/profilechange',
  access: 'session',
  summary: "Asks for an account's email to change (own, or as a surrogate)",
  body: Type.Object(
    {
      username: Type.String({ minLength: 1, maxLength: 255 }),
      // Optional so that a missing one gets the spec's message from the rules.
      email: Type.Optional(Type.String({ maxLength: 320 })),
      reason: Type.Optional(Type.String({ maxLength: 2000 })),
    },
    closed,
  ),
  response: OkCode,
  errors: [404, 409],
});
