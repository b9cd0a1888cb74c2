/** GET /accounts/rest/health: is the server up and its database answering? Public. */
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBody, errorBody } from '../../errors.js';
import { checkDatabase } from '../../services/health.js';

const HealthBody = Type.Object(
  { status: Type.Literal('ok'), database: Type.Literal('ok') },
  { additionalProperties: false },
);

export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/health',
    {
      config: { access: 'public', xsrf: false },
      schema: { response: { 200: HealthBody, 503: ErrorBody, 500: ErrorBody } },
    },
    async (request, reply) => {
      const health = await checkDatabase(app.db);
      if (health.ok) return { status: 'ok' as const, database: 'ok' as const };
      request.log.error({ err: health.error }, 'health check: the database does not answer');
      return reply.code(503).send(errorBody(503, 'Database unavailable'));
    },
  );
};
