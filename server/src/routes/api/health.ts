/** GET /accounts/rest/health: is the server up and its database answering? Public. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { getHealth } from '@portal/api';
import { errorBody } from '../../errors.js';
import { checkDatabase } from '../../services/health.js';
import { endpointRoute } from './endpoint-route.js';

export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.route({
    ...endpointRoute(getHealth),
    handler: async (request, reply) => {
      const health = await checkDatabase(app.db);
      if (health.ok) return { status: 'ok' as const, database: 'ok' as const };
      request.log.error({ err: health.error }, 'health check: the database does not answer');
      return reply.code(503).send(errorBody(503, 'Database unavailable'));
    },
  });
};
