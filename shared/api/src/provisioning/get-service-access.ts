import { Type } from 'typebox';
import { closed, UsernameParams } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { ServiceAccess } from './provisioning.js';

/**
 * GET /service-access/{username}: for each service the account holds, whether the portal's
 * decisions have reached the services (the owner with VIEW_SUBSCRIPTIONS, or VIEW_ACCOUNT).
 * `provisioned` is false when no target is configured: there is nothing to show.
 */
export const getServiceAccess = defineEndpoint({
  method: 'GET',
  path: '/service-access/:username',
  access: 'session',
  summary: "Whether an account's access to each of its services is in step",
  params: UsernameParams,
  response: Type.Object({ provisioned: Type.Boolean(), services: Type.Array(ServiceAccess) }, closed),
  errors: [404, 409],
});
