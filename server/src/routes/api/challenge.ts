/** GET /accounts/rest/accounts/botchallengeendpoint: a new bot challenge (ALTCHA v2), public. */
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBody } from '../../errors.js';
import { createBotChallenge } from '../../services/challenge.js';

/** What altcha-lib's createChallenge returns (the signature covers every parameter). */
const ChallengeBody = Type.Object(
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
      { additionalProperties: false },
    ),
    signature: Type.String(),
  },
  { additionalProperties: false },
);

export const challengeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/accounts/botchallengeendpoint',
    {
      config: { access: 'public', xsrf: false },
      schema: {
        response: {
          200: Type.Object({ code: Type.Literal(200), ok: ChallengeBody }, { additionalProperties: false }),
          500: ErrorBody,
        },
      },
    },
    async () => ({ code: 200 as const, ok: await createBotChallenge(app.security) }),
  );
};
