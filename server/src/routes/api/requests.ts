/** GET /accounts/rest/requests: the request summary counts (zero until the request queues exist). */
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBody } from '../../errors.js';

const SummaryBody = Type.Object(
  {
    total_authchange: Type.Integer(),
    total_profilechange: Type.Integer(),
    total_mailinglist: Type.Integer(),
    total_new: Type.Integer(),
    total_usergroup: Type.Integer(),
    total_unlock: Type.Integer(),
  },
  { additionalProperties: false },
);

export const requestRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/requests',
    {
      config: { permission: 'VIEW_REQUEST_SUMMARY' },
      schema: { response: { 200: SummaryBody, 401: ErrorBody, 403: ErrorBody, 500: ErrorBody } },
    },
    async () => ({
      total_authchange: 0,
      total_profilechange: 0,
      total_mailinglist: 0,
      total_new: 0,
      total_usergroup: 0,
      total_unlock: 0,
    }),
  );
};
