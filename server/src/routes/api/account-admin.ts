/**
 * The account administration (server/docs/adjudication.md, "Accounts"): the search, lock,
 * unlock, close and the history export. Definitions: @portal/api accounts/account-admin.ts.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import * as api from '@portal/api';
import { accountHistoryCsv, closeAccount, lockAccount, searchAccounts, unlockAccount } from '../../services/account-admin.js';
import { endpointRoute } from './endpoint-route.js';
import { selfServiceContext, signedInAccount } from './signed-in.js';

export const accountAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.route({
    ...endpointRoute(api.searchAccounts),
    handler: async (request) => searchAccounts(selfServiceContext(app), request.body),
  });

  app.route({
    ...endpointRoute(api.lockAccount),
    handler: async (request) => lockAccount(selfServiceContext(app), await signedInAccount(request), request.params.username, request.body),
  });

  app.route({
    ...endpointRoute(api.unlockAccount),
    handler: async (request) => unlockAccount(selfServiceContext(app), await signedInAccount(request), request.params.username, request.body),
  });

  app.route({
    ...endpointRoute(api.closeAccount),
    handler: async (request) => closeAccount(selfServiceContext(app), await signedInAccount(request), request.body),
  });

  // The 200 schema documents the body: a string sent with its own content type is not serialized.
  app.route({
    ...endpointRoute(api.accountHistoryCsv),
    handler: async (request, reply) => {
      const { fileName, csv } = await accountHistoryCsv(selfServiceContext(app), request.params.username);
      reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${fileName}"`);
      return csv;
    },
  });
};
