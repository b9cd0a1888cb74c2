/**
 * What provisioning looks like from outside: each target's backlog, failures and last reconcile
 * (`portal provision status`, the Provisioning page), and an account's access per service (the
 * profile and Account Administration), in words a person reads.
 */
import type { ServiceAccess } from '@portal/api';
import type { Queryable } from '../../db/database.js';
import { supportedServices } from '@portal/api';
import { LISTS_KIND } from './lists.js';
import { objectParts, plural } from './target.js';
import { countTargets, pendingRows, targetStatuses } from '../../repositories/provisioning/queue.js';
import { usernamesByIds } from '../../repositories/account-view.js';
import { targetAccount, type Actor, type SelfServiceContext } from '../account-access.js';
import { subscriptionsOf } from '../subscriptions.js';

export interface TargetOverview {
  name: string;
  kind: string;
  backlog: number;
  failing: number;
  oldest_pending: string | null;
  last_reconcile_at: string | null;
  last_reconcile_differences: number | null;
}

export interface FailureOverview {
  target: string;
  /** 'account alice' or 'group ALPHA-team' */
  object: string;
  since: string;
  attempts: number;
  next_attempt_at: string;
  error: string;
}

export interface ProvisioningOverview {
  targets: TargetOverview[];
  failures: FailureOverview[];
}

/** 'account:12' → 'account alice'; 'group:X' → 'group X' (for people: the history, the failures). */
export async function objectNames(db: Queryable, rows: readonly { object: string | null }[]): Promise<Map<string, string>> {
  const ids = rows.map((r) => /^account:(\d+)$/.exec(r.object ?? '')?.[1]).filter((id): id is string => id !== undefined);
  const usernames = await usernamesByIds(db, ids);
  const names = new Map<string, string>();
  for (const row of rows) {
    if (row.object === null || !row.object.includes(':')) continue;
    const { kind, key } = objectParts(row.object);
    names.set(row.object, kind === 'account' ? `account ${usernames.get(key) ?? `#${key}`}` : `${kind} ${key}`);
  }
  return names;
}

export async function provisioningOverview(db: Queryable, maxFailures = 100): Promise<ProvisioningOverview> {
  const targets = await targetStatuses(db);
  const failed = await pendingRows(db, { failedOnly: true, limit: maxFailures });
  const names = await objectNames(db, failed);
  return {
    targets: targets.map((t) => ({
      name: t.name,
      kind: t.kind,
      backlog: t.backlog,
      failing: t.failing,
      oldest_pending: t.oldestSince?.toISOString() ?? null,
      last_reconcile_at: t.lastReconcileAt?.toISOString() ?? null,
      last_reconcile_differences: t.lastReconcileDrift,
    })),
    failures: failed.map((f) => ({
      target: f.target,
      object: names.get(f.object) ?? f.object,
      since: f.since.toISOString(),
      attempts: f.attempts,
      next_attempt_at: f.nextAttemptAt.toISOString(),
      error: f.lastError ?? '',
    })),
  };
}

/** The overview as the command line prints it. */
export function overviewText(overview: ProvisioningOverview): string {
  if (overview.targets.length === 0) return 'No provisioning target is configured (PORTAL_LDAP_URL and PORTAL_SCIM_TARGETS are unset, and PORTAL_LIST_ENGINE is not mailman).\n';
  const lines: string[] = [];
  for (const t of overview.targets) {
    const backlog = t.backlog === 0 ? 'up to date' : `${t.backlog} pending since ${t.oldest_pending}${t.failing > 0 ? `, ${t.failing} failing` : ''}`;
    const reconcile =
      t.last_reconcile_at === null ? 'never reconciled' : `last reconcile ${t.last_reconcile_at} (${t.last_reconcile_differences ?? 0} differences repaired)`;
    lines.push(`${t.name} (${t.kind}): ${backlog}; ${reconcile}`);
  }
  if (overview.failures.length > 0) {
    lines.push('', 'Failures:');
    for (const f of overview.failures) {
      lines.push(`  ${f.target}  ${f.object}  since ${f.since}  ${plural(f.attempts, 'attempt')}, next at ${f.next_attempt_at}`, `    ${f.error}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/**
 * For each service the account holds (among those the portal supports), whether the decisions
 * about it have reached every target that grants services (the mailing lists' rosters grant none):
 * a change waiting for the account itself concerns all its services, one for a service's access
 * group that service only. Failed beats pending; the oldest wait is told.
 */
export async function serviceAccessOf(db: Queryable, accountId: number, services: readonly string[]): Promise<ServiceAccess[]> {
  const objects = [`account:${accountId}`, ...services.map((s) => `group:${s}-users`)];
  const rows = await pendingRows(db, { objects, exceptKind: LISTS_KIND, limit: 1000 });
  return services.map((service) => {
    const relevant = rows.filter((r) => r.object === `account:${accountId}` || r.object === `group:${service}-users`);
    if (relevant.length === 0) return { service, state: 'up-to-date', since: null, next_attempt_at: null, error: null };
    const failed = relevant.filter((r) => r.attempts > 0).sort((a, b) => a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime());
    const since = Math.min(...relevant.map((r) => r.since.getTime()));
    const first = failed[0];
    if (first) return { service, state: 'failed', since, next_attempt_at: first.nextAttemptAt.getTime(), error: first.lastError };
    return { service, state: 'pending', since, next_attempt_at: null, error: null };
  });
}

/** GET /service-access/{username}: the owner with VIEW_SUBSCRIPTIONS, or VIEW_ACCOUNT. */
export async function getServiceAccess(context: SelfServiceContext, actor: Actor, username: string): Promise<{ provisioned: boolean; services: ServiceAccess[] }> {
  const { account } = await targetAccount(context.db, actor, username, { own: 'VIEW_SUBSCRIPTIONS', any: 'VIEW_ACCOUNT' });
  if ((await countTargets(context.db, { exceptKind: LISTS_KIND })) === 0) return { provisioned: false, services: [] };
  const held = await subscriptionsOf(context.db, account.id, supportedServices(context.config));
  const services = [...new Set([...held.direct, ...held.nested])].sort();
  return { provisioned: true, services: await serviceAccessOf(context.db, account.id, services) };
}
