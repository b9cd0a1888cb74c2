/**
 * The request queues (server/docs/adjudication.md): the summary counts, and for each kind its
 * list, its detail and its decisions, each kind's routes declaring that kind's permission; the
 * denied account request search.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import * as api from '@portal/api';
import { REQUEST_KIND_INFO, REQUEST_KINDS, type RequestKind } from '@portal/api';
import { decideRequest, getRequest, listRequests, requestSummary, searchDenied } from '../../services/adjudication.js';
import { publicBaseUrl } from './account-requests.js';
import { endpointRoute } from './endpoint-route.js';
import { selfServiceContext, signedInAccount } from './signed-in.js';

const page = (query: { start_index?: number; max_results?: number }) => ({
  startIndex: query.start_index ?? 0,
  maxResults: query.max_results ?? api.PAGE_SIZE,
});

export const requestRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.route({
    ...endpointRoute(api.getRequestSummary),
    handler: async (request) => requestSummary(selfServiceContext(app), await signedInAccount(request)),
  });

  app.route({
    ...endpointRoute(api.searchDeniedRequests),
    handler: async (request) => searchDenied(selfServiceContext(app), request.body.term, page(request.body)),
  });

  const kindRoutes = (kind: RequestKind) => {
    // Membership requests are listed per group (routes/api/groups.ts: listMembershipRequests).
    if (kind !== 'membership') {
      app.route({
        ...endpointRoute(api.listRequests(kind)),
        handler: async (request) => listRequests(selfServiceContext(app), kind, page(request.query)),
      });
    }
    app.route({
      ...endpointRoute(api.getRequest(kind)),
      handler: async (request) => getRequest(selfServiceContext(app), await signedInAccount(request), kind, request.params.id),
    });
    for (const decision of REQUEST_KIND_INFO[kind].decisions) {
      app.route({
        ...endpointRoute(api.decideRequest(kind, decision)),
        handler: async (request) =>
          decideRequest(selfServiceContext(app), await signedInAccount(request), kind, request.params.id, decision, {
            comment: request.body.comment,
            publicUrl: publicBaseUrl(request, app.security.settings),
          }),
      });
    }
  };
  for (const kind of REQUEST_KINDS) kindRoutes(kind);
};
