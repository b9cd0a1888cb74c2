/**
 * An account as its owner and the account administrators see it (server/docs/self-service.md,
 * "Signed in"): GET and POST /accounts/{username}. Both declare `access: 'session'`: who may act
 * on which account is the service's rule.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { getAccount as getAccountEndpoint, updateProfile as updateProfileEndpoint } from '@portal/api';
import { getAccount, updateProfile } from '../../services/accounts.js';
import { endpointRoute } from './endpoint-route.js';
import { selfServiceContext, signedInAccount } from './signed-in.js';

export const accountRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.route({
    ...endpointRoute(getAccountEndpoint),
    handler: async (request) => getAccount(selfServiceContext(app), await signedInAccount(request), request.params.username),
  });

  app.route({
    ...endpointRoute(updateProfileEndpoint),
    handler: async (request) => updateProfile(selfServiceContext(app), await signedInAccount(request), request.params.username, request.body),
  });
};
