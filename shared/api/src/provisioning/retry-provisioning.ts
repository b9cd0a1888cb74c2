import { Type } from 'typebox';
import { closed } from '../common.js';
import { defineEndpoint } from '../endpoint.js';

export const ProvisioningTargetBody = Type.Object({ target: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) }, closed);

/** POST /provisioning/retry { target? }: the failed changes (of one target, or all) are tried again now; 409 without a target. */
export const retryProvisioning = defineEndpoint({
  method: 'POST',
  path: '/provisioning/retry',
  access: { permission: 'MANAGE_PROVISIONING' },
  summary: 'Try the failed provisioning changes again now',
  body: ProvisioningTargetBody,
  response: Type.Object({ retried: Type.Integer({ minimum: 0 }) }, closed),
  errors: [404, 409],
});
