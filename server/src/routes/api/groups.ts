/**
 * Groups and memberships (spec section 7, "Groups and memberships"; server/docs/groups.md). The
 * routes declare a signed-in caller; the permission each needs in the group the call names is in
 * its definition (x-group-permission in the OpenAPI document) and checked by the service.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import * as api from '@portal/api';
import {
  addPermissionGroup,
  deletePermissionGroup,
  getUserGroup,
  listGroupMailingLists,
  listUserGroups,
  requestUserGroup,
  searchGroupCandidates,
  updateUserGroup,
} from '../../services/groups.js';
import { listMembershipRequests } from '../../services/adjudication.js';
import { searchMemberships, submitMembership } from '../../services/memberships.js';
import { endpointRoute } from './endpoint-route.js';
import { selfServiceContext, signedInAccount } from './signed-in.js';

export const groupRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const context = () => selfServiceContext(app);

  app.route({ ...endpointRoute(api.listUserGroups), handler: async (request) => listUserGroups(context(), await signedInAccount(request)) });
  app.route({
    ...endpointRoute(api.getUserGroup),
    handler: async (request) => getUserGroup(context(), await signedInAccount(request), request.params.id),
  });
  app.route({
    ...endpointRoute(api.updateUserGroup),
    handler: async (request) => updateUserGroup(context(), await signedInAccount(request), request.params.id, request.body),
  });
  app.route({
    ...endpointRoute(api.requestUserGroup),
    handler: async (request) => {
      await requestUserGroup(context(), await signedInAccount(request), request.body);
      return { ok: true as const, code: 200 as const };
    },
  });
  app.route({
    ...endpointRoute(api.addPermissionGroup),
    handler: async (request) => addPermissionGroup(context(), await signedInAccount(request), request.params.id, request.params.group),
  });
  app.route({
    ...endpointRoute(api.deletePermissionGroup),
    handler: async (request) => deletePermissionGroup(context(), await signedInAccount(request), request.params.id, request.params.group),
  });
  app.route({
    ...endpointRoute(api.listGroupMailingLists),
    handler: async (request) => listGroupMailingLists(context(), await signedInAccount(request), request.params.id),
  });
  app.route({
    ...endpointRoute(api.searchGroupCandidates),
    handler: async (request) => searchGroupCandidates(context(), await signedInAccount(request), request.params.id, request.body),
  });
  app.route({
    ...endpointRoute(api.searchMemberships),
    handler: async (request) => searchMemberships(context(), await signedInAccount(request), request.body),
  });
  app.route({
    ...endpointRoute(api.listMembershipRequests),
    handler: async (request) => listMembershipRequests(context(), await signedInAccount(request), request.query),
  });
  app.route({
    ...endpointRoute(api.requestMembership),
    handler: async (request) => submitMembership(context(), await signedInAccount(request), 'new', request.body),
  });
  app.route({
    ...endpointRoute(api.updateMembership),
    handler: async (request) => submitMembership(context(), await signedInAccount(request), 'update', request.body),
  });
};
