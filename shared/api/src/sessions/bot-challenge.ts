/** GET /accounts/botchallengeendpoint: a proof-of-work challenge for the ALTCHA widget, public. */
import { Type, type Static } from 'typebox';
import { closed } from '../common.js';
import { defineEndpoint } from '../endpoint.js';

/** The challenge as altcha-lib creates it and the widget takes it (ALTCHA v2; the signature covers every parameter). */
export const BotChallenge = Type.Object(
  {
    parameters: Type.Object(
      {
        algorithm: Type.String(),
        cost: Type.Integer(),
        expiresAt: Type.Integer(),
        keyLength: Type.Integer(),
        keyPrefix: Type.String(),
        nonce: Type.String(),
        salt: Type.String(),
      },
      closed,
    ),
    signature: Type.String(),
  },
  closed,
);
export type BotChallenge = Static<typeof BotChallenge>;

export const getBotChallenge = defineEndpoint({
  method: 'GET',
  path: '/accounts/botchallengeendpoint',
  access: 'public',
  limit: 'challenge',
  xsrf: false,
  summary: 'A new bot challenge (ALTCHA proof of work)',
  response: Type.Object({ code: Type.Literal(200), ok: BotChallenge }, closed),
});
