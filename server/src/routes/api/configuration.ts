/** GET /accounts/rest/configuration: the portal configuration (spec section 3), public. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { getConfiguration } from '@portal/api';
import { endpointRoute } from './endpoint-route.js';

export const configurationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.route({ ...endpointRoute(getConfiguration), handler: async () => app.portalConfig });
};
