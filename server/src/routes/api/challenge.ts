/** GET /accounts/rest/accounts/botchallengeendpoint: a new bot challenge (ALTCHA v2), public. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { getBotChallenge } from '@portal/api';
import { createBotChallenge } from '../../services/challenge.js';
import { endpointRoute } from './endpoint-route.js';

export const challengeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.route({
    ...endpointRoute(getBotChallenge),
    handler: async () => ({ code: 200 as const, ok: await createBotChallenge(app.security) }),
  });
};
