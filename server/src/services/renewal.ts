/**
 * Annual certification (server/docs/self-service.md, "Renewal"): an account whose last
 * certification (or, never certified, its creation) is more than 365 days old must renew before
 * anything else. Its sessions then carry exactly these permissions, and the security guard
 * refuses every signed-in route that does not declare `config: { duringRenewal: true }`.
 */
import type { Permission } from '@portal/api';

export const RENEWAL_PERIOD_DAYS = 365;
const DAY_MS = 86_400_000;

/** What a session carries while its account must renew (in the order of PERMISSIONS). */
export const RENEWAL_PERMISSIONS: readonly Permission[] = ['RENEW_ACCOUNT', 'allow-renewal'];

/** Whether an account certified at `lastCertified` (null: never) and created at `createdAt` must renew at `now`. */
export function isRenewalDue(lastCertified: Date | null, createdAt: Date, now: Date): boolean {
  const since = (lastCertified ?? createdAt).getTime();
  return now.getTime() - since > RENEWAL_PERIOD_DAYS * DAY_MS;
}
