/**
 * Reconciliation (server/docs/mailing-lists.md, "Reconciliation"): the portal decides who is on a
 * list (eligibility from the groups, each member's choice); an engine that keeps its own roster
 * (Mailman) is made to follow.
 *  - syncAccount: after a change of one account's group memberships (joined, left, removed,
 *    a membership request approved), that account's address on every portal list;
 *  - syncList: one list's whole roster (after the list is created, and on the schedule);
 *  - syncAllLists: every list, on the schedule (PORTAL_MAILMAN_SYNC_MS): what the hooks missed
 *    (Mailman down at the time, a locked or closed account, a changed address, a nested group,
 *    a change made in Mailman behind the portal's back).
 * The embedded engine reads the roster from the portal's tables: every call here is a no-op for it.
 */
import type { Database, Queryable } from '../../db/database.js';
import { findAccountRecordById } from '../../repositories/account-view.js';
import { findEligibleMembers, findMailingList, findSubscriptionChoices, listMailingListsOfGroups, type MailingListRecord } from '../../repositories/mailing-lists.js';
import { findHeldGroups } from '../../repositories/groups.js';
import { eligibleGroups } from '@portal/api';
import { NO_CHANGES, type Delivery, type ListEngine, type RosterChanges, type RosterEntry } from './engine.js';

export interface ListSyncContext {
  readonly db: Database;
  readonly listEngine: ListEngine;
}

const ALL_LISTS = `select l.id, l.user_group_id, l.description, l.permission_group, l.posting_permissions, l.automatic_subscription from mailing_lists l order by l.id`;

async function allLists(db: Queryable): Promise<MailingListRecord[]> {
  const { rows } = await db.query<{
    id: string;
    user_group_id: string;
    description: string;
    permission_group: string;
    posting_permissions: MailingListRecord['postingPermissions'];
    automatic_subscription: boolean;
  }>(ALL_LISTS);
  return rows.map((r) => ({
    id: r.id,
    userGroupId: r.user_group_id,
    description: r.description,
    permissionGroup: r.permission_group,
    postingPermissions: r.posting_permissions,
    automaticSubscription: r.automatic_subscription,
  }));
}

/** The list's subscribers as the portal sees them: eligible, subscribed, with their delivery. */
export async function wantedRoster(db: Queryable, list: MailingListRecord): Promise<RosterEntry[]> {
  const members = await findEligibleMembers(db, list, { subscribedOnly: true });
  return members.map((m) => ({ email: m.email.toLowerCase(), displayName: m.fullName, delivery: m.digest ? 'digest' : 'regular' }));
}

/** One list's roster at the engine made the portal's. `db` may be a transaction (the list's creation). */
export async function syncList(engine: ListEngine, db: Queryable, listId: string): Promise<RosterChanges> {
  if (engine.portalDelivers) return { ...NO_CHANGES };
  const list = await findMailingList(db, listId);
  if (!list) return { ...NO_CHANGES };
  return engine.reconcileList(list, await wantedRoster(db, list));
}

/** One account's address on every portal list made what the portal decides. */
export async function syncAccount(context: ListSyncContext, accountId: number): Promise<RosterChanges> {
  const engine = context.listEngine;
  if (engine.portalDelivers) return { ...NO_CHANGES };
  const account = await findAccountRecordById(context.db, accountId);
  if (!account) return { ...NO_CHANGES };
  const wanted = new Map<string, Delivery>();
  if (account.active && !account.closed) {
    const held = await findHeldGroups(context.db, account.id);
    const names = new Set(held.map((h) => `${h.userGroupId}\u0000${h.groupName}`));
    const lists = await listMailingListsOfGroups(context.db, [...new Set(held.map((h) => h.userGroupId))]);
    const choices = await findSubscriptionChoices(context.db, account.id, lists.map((l) => l.id));
    for (const list of lists) {
      const eligible = eligibleGroups(list.userGroupId, list.permissionGroup).some((name) => names.has(`${list.userGroupId}\u0000${name}`));
      const choice = choices.get(list.id);
      if (eligible && (choice?.subscribed ?? list.automaticSubscription)) wanted.set(list.id, choice?.digest ? 'digest' : 'regular');
    }
  }
  const displayName = [account.first_name, account.last_name].filter(Boolean).join(' ');
  return engine.reconcileAddress({ email: account.email.toLowerCase(), displayName }, wanted, await allLists(context.db));
}

/**
 * After a change of these accounts' memberships has been committed: their subscriptions follow.
 * The change stands whatever happens here; a failure (Mailman down) is reported to `onError`
 * and the scheduled reconciliation catches up.
 */
export async function followAccounts(context: ListSyncContext, accountIds: readonly number[], onError: (error: unknown) => void = () => undefined): Promise<void> {
  if (context.listEngine.portalDelivers) return;
  for (const id of new Set(accountIds)) {
    try {
      await syncAccount(context, id);
    } catch (error) {
      onError(error);
    }
  }
}

/** Every list's roster (the schedule). Goes on past a failing list; throws the first failure at the end. */
export async function syncAllLists(context: ListSyncContext): Promise<RosterChanges> {
  const total = { ...NO_CHANGES };
  if (context.listEngine.portalDelivers) return total;
  let failure: unknown;
  for (const list of await allLists(context.db)) {
    try {
      const changes = await context.listEngine.reconcileList(list, await wantedRoster(context.db, list));
      total.subscribed += changes.subscribed;
      total.unsubscribed += changes.unsubscribed;
      total.changedDelivery += changes.changedDelivery;
    } catch (error) {
      failure ??= error;
    }
  }
  if (failure !== undefined) throw failure;
  return total;
}
