/**
 * The sign-ins to services (server/docs/service-sign-in.md, "Sign-ins to services"): the user's
 * own (the profile) and an account's for an administrator (Account Administration, LOCK_ACCOUNT),
 * each of which may end them. Definitions: @portal/api service-sign-in/sign-ins.ts.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import * as api from '@portal/api';
import { endAccountServiceSignIns, endOwnServiceSignIns, listAccountServiceSignIns, listServiceSignIns } from '../../services/service-sign-in/sign-ins.js';
import { endpointRoute } from '../api/endpoint-route.js';
import { selfServiceContext, signedInAccount } from '../api/signed-in.js';

export const serviceSignInRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.route({
    ...endpointRoute(api.listOwnServiceSignIns),
    handler: async (request) => listServiceSignIns(selfServiceContext(app), (await signedInAccount(request)).id),
  });

  app.route({
    ...endpointRoute(api.endOwnServiceSignIn),
    handler: async (request) => endOwnServiceSignIns(selfServiceContext(app), await signedInAccount(request), request.params.client),
  });

  app.route({
    ...endpointRoute(api.listAccountServiceSignIns),
    handler: async (request) => listAccountServiceSignIns(selfServiceContext(app), request.params.username),
  });

  app.route({
    ...endpointRoute(api.endAccountServiceSignIn),
    handler: async (request) =>
      endAccountServiceSignIns(selfServiceContext(app), await signedInAccount(request), request.params.username, request.params.client),
  });

  app.route({
    ...endpointRoute(api.endAccountServiceSignIns),
    handler: async (request) => endAccountServiceSignIns(selfServiceContext(app), await signedInAccount(request), request.params.username, undefined),
  });
};
