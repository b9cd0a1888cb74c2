import { Type } from 'typebox';
import { closed } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { ProvisioningEvent, ProvisioningFailure, ProvisioningTarget } from './provisioning.js';

/** GET /provisioning: each target, the failures waiting, and the latest history (newest first). */
export const getProvisioning = defineEndpoint({
  method: 'GET',
  path: '/provisioning',
  access: { permission: 'MANAGE_PROVISIONING' },
  summary: 'Provisioning: each target, its backlog and failures, and the latest reconciles',
  response: Type.Object(
    { targets: Type.Array(ProvisioningTarget), failures: Type.Array(ProvisioningFailure), history: Type.Array(ProvisioningEvent) },
    closed,
  ),
});
