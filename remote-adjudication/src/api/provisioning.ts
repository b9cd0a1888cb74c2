/** The Provisioning page's calls (definitions in @portal/api; MANAGE_PROVISIONING). */
import * as api from '@portal/api';
import type { ReconcileResult } from '@portal/api';
import { call, linkTo } from '@portal/shared';

type Options = { readonly signal?: AbortSignal };

export type ProvisioningOverview = Awaited<ReturnType<typeof getProvisioning>>;

/** Each target, the failures waiting and the latest history, newest first. */
export function getProvisioning(options: Options = {}) {
  return call(api.getProvisioning, {}, options);
}

/** The failed changes (of every target) are tried again now; answers how many. */
export async function retryProvisioning(options: Options = {}): Promise<number> {
  return (await call(api.retryProvisioning, { body: {} }, options)).retried;
}

/** Compares every target with the portal's truth and repairs it now; answers what each repaired. */
export async function reconcileProvisioning(options: Options = {}): Promise<ReconcileResult[]> {
  return (await call(api.reconcileProvisioning, { body: {} }, options)).results;
}

/** A plain link: the browser sends the session cookie and saves provisioning-history.csv. */
export function provisioningHistoryUrl(): string {
  return linkTo(api.provisioningHistoryCsv);
}
