/**
 * The request queues (server/docs/adjudication.md): the summary counts, and for each kind its
 * list, its detail and its decisions, each kind's routes declaring that kind's permission; the
 * denied account request search.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import * as api from '@portal/api';
import { decideRequest, getRequest, listRequests, registeredKinds, requestSummary, searchDenied, type RequestKindDefinition } from '../../services/adjudication.js';
import { publicBaseUrl } from './account-requests.js';
import { endpointRoute } from './endpoint-route.js';
import { selfServiceContext, signedInAccount } from './signed-in.js';

const page = (query: { start_index?: number; max_results?: number }) => ({
  startIndex: query.start_index ?? 0,
  maxResults: query.max_results ?? api.PAGE_SIZE,
});

export const requestRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.route({
    // Its answer closed over the kinds registered here: one count per kind with a queue.
    ...endpointRoute(api.requestSummaryEndpoint(registeredKinds().map(({ declaration }) => declaration))),
    handler: async (request) => requestSummary(selfServiceContext(app), await signedInAccount(request)),
  });

  app.route({
    ...endpointRoute(api.searchDeniedRequests),
    handler: async (request) => searchDenied(selfServiceContext(app), request.body.term, page(request.body)),
  });

  const kindRoutes = ({ kind, declaration }: RequestKindDefinition) => {
    // A kind decided in a group is listed per group (membership: routes/api/groups.ts, listMembershipRequests).
    if (!declaration.decidedInGroup) {
      app.route({
        ...endpointRoute(api.listRequests(declaration)),
        handler: async (request) => listRequests(selfServiceContext(app), kind, page(request.query)),
      });
    }
    app.route({
      ...endpointRoute(api.getRequest(declaration)),
      handler: async (request) => getRequest(selfServiceContext(app), await signedInAccount(request), kind, request.params.id),
    });
    for (const decision of declaration.decisions) {
      app.route({
        ...endpointRoute(api.decideRequest(declaration, decision)),
        handler: async (request) =>
          decideRequest(selfServiceContext(app), await signedInAccount(request), kind, request.params.id, decision, {
            comment: request.body.comment,
            publicUrl: publicBaseUrl(request, app.security.settings),
          }),
      });
    }
  };
  for (const kind of registeredKinds()) kindRoutes(kind);
};
