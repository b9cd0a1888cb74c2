import { Type } from 'typebox';
import { closed } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { ReconcileResult } from './provisioning.js';
import { ProvisioningTargetBody } from './retry-provisioning.js';

/**
 * POST /provisioning/reconcile { target? }: compares each target (or one) with the portal's truth
 * and repairs it now; 409 while it is being reconciled, or when no target is configured.
 */
export const reconcileProvisioning = defineEndpoint({
  method: 'POST',
  path: '/provisioning/reconcile',
  access: { permission: 'MANAGE_PROVISIONING' },
  summary: 'Reconcile the provisioning targets now',
  body: ProvisioningTargetBody,
  response: Type.Object({ results: Type.Array(ReconcileResult) }, closed),
  errors: [404, 409],
});
