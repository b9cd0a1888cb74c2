/**
 * Artifact-repository tokens (spec section 7, "Tokens"; server/docs/tokens.md), and Account
 * Administration's view of an account's tokens. Without the artifact repository among the
 * supported services these routes answer 404, as if they were not there.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import * as api from '@portal/api';
import { isServiceSupported, TOKEN_MESSAGES } from '@portal/api';
import { NotFoundError } from '../../errors.js';
import {
  createToken,
  listAccountTokens,
  listTokenGroups,
  listTokens,
  revokeAccountToken,
  revokeToken,
  type TokenContext,
} from '../../services/tokens/tokens.js';
import { endpointRoute } from './endpoint-route.js';
import { selfServiceContext, signedInAccount } from './signed-in.js';

export const tokenRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const context = (): TokenContext => ({ ...selfServiceContext(app), issuer: app.tokenIssuer });
  if (!isServiceSupported(app.portalConfig, 'artifacts')) {
    app.addHook('onRequest', async () => {
      throw new NotFoundError(TOKEN_MESSAGES.unsupported);
    });
  }

  app.route({ ...endpointRoute(api.listTokens), handler: async (request) => listTokens(context(), await signedInAccount(request)) });
  app.route({ ...endpointRoute(api.listTokenGroups), handler: async (request) => listTokenGroups(context(), await signedInAccount(request)) });
  app.route({
    ...endpointRoute(api.createToken),
    handler: async (request) => createToken(context(), await signedInAccount(request), request.body),
  });
  app.route({
    ...endpointRoute(api.revokeToken),
    handler: async (request) => revokeToken(context(), await signedInAccount(request), request.params.id),
  });
  app.route({
    ...endpointRoute(api.listAccountTokens),
    handler: async (request) => listAccountTokens(context(), request.params.username),
  });
  app.route({
    ...endpointRoute(api.revokeAccountToken),
    handler: async (request) => revokeAccountToken(context(), await signedInAccount(request), request.params.username, request.params.id),
  });
};
