/**
 * Mailing lists (spec section 7, "Mailing lists"; server/docs/mailing-lists.md). The routes
 * declare a signed-in caller; who may see a list, administer its members or moderate it is
 * checked by the service, since the list comes from the call.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import * as api from '@portal/api';
import {
  getMailingList,
  listAllHeldMessages,
  listHeldMessages,
  listListMembers,
  listMailingLists,
  moderateHeldMessages,
  requestMailingList,
  updateListSubscription,
} from '../../services/mailing-lists.js';
import { endpointRoute } from './endpoint-route.js';
import { selfServiceContext, signedInAccount } from './signed-in.js';

export const mailingListRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const context = () => selfServiceContext(app);
  app.route({ ...endpointRoute(api.listMailingLists), handler: async (request) => listMailingLists(context(), await signedInAccount(request)) });
  app.route({ ...endpointRoute(api.listAllHeldMessages), handler: async (request) => listAllHeldMessages(context(), await signedInAccount(request)) });
  app.route({
    ...endpointRoute(api.getMailingList),
    handler: async (request) => getMailingList(context(), await signedInAccount(request), request.params.id),
  });
  app.route({
    ...endpointRoute(api.updateListSubscription),
    handler: async (request) => updateListSubscription(context(), await signedInAccount(request), request.params.id, request.body),
  });
  app.route({
    ...endpointRoute(api.listListMembers),
    handler: async (request) => listListMembers(context(), await signedInAccount(request), request.params.id),
  });
  app.route({
    ...endpointRoute(api.listHeldMessages),
    handler: async (request) => listHeldMessages(context(), await signedInAccount(request), request.params.id),
  });
  app.route({
    ...endpointRoute(api.moderateHeldMessages),
    handler: async (request) => moderateHeldMessages(context(), await signedInAccount(request), request.params.id, request.body),
  });
  app.route({
    ...endpointRoute(api.requestMailingList),
    handler: async (request) => requestMailingList(context(), await signedInAccount(request), request.body),
  });
};
