/** `portal provision reconcile`: a reconcile of every target, run by the engine that owns them. */
import { ReconcileBusyError, type ProvisioningEngine } from './engine.js';

/** A failure the command line prints as it is. */
export class ProvisioningCommandError extends Error {}

export interface ReconcileResult {
  target: string;
  summary: string;
  differences: number;
  drift: string[];
  unknown: string[];
}

export async function reconcileForCommand(engine: ProvisioningEngine | undefined, dryRun: boolean): Promise<ReconcileResult[]> {
  if (engine === undefined || engine.targets.length === 0) {
    throw new ProvisioningCommandError('No provisioning target is configured (set PORTAL_LDAP_URL with the other PORTAL_LDAP_ settings, or PORTAL_SCIM_TARGETS).');
  }
  try {
    const done = await engine.reconcile({ dryRun });
    return done.map((r) => ({ target: r.target, summary: r.summary, differences: r.report.differences, drift: r.report.drift, unknown: r.report.unknown }));
  } catch (error) {
    if (error instanceof ReconcileBusyError) throw new ProvisioningCommandError(error.message);
    if (error instanceof Error) throw new ProvisioningCommandError(`The reconcile failed: ${error.message}`);
    throw error;
  }
}
