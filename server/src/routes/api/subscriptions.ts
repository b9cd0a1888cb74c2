/** Service subscriptions (server/docs/self-service.md, "Signed in"). Definitions: @portal/api self-service/subscriptions.ts. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import * as api from '@portal/api';
import { getSubscriptions, setSubscription } from '../../services/subscriptions.js';
import { endpointRoute } from './endpoint-route.js';
import { selfServiceContext, signedInAccount } from './signed-in.js';

export const subscriptionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.route({
    ...endpointRoute(api.getSubscriptions),
    handler: async (request) => getSubscriptions(selfServiceContext(app), await signedInAccount(request), request.params.username),
  });

  app.route({
    ...endpointRoute(api.setSubscription),
    handler: async (request) => setSubscription(selfServiceContext(app), await signedInAccount(request), request.params.username, request.body),
  });
};
