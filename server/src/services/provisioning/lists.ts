/**
 * The mailing lists' rosters as a provisioning target (docs/provisioning.md, "Mailing lists"): a
 * list engine that keeps a roster of its own (Mailman) follows the portal, which decides who is on
 * a list (eligibility from the groups, each member's choice). The decisions record what changed in
 * their own transaction (migrations 0016 and 0017), and the engine applies it:
 *  - 'account:<id>': that account's address on every portal list (it joined or left a group, was
 *    locked, closed or unlocked, a membership request was approved);
 *  - 'list:<id>': one list's whole roster (the list created, a member's choice, a changed address);
 *  - 'group:<name>': a nesting changed: every list of that group's user group;
 *  - the reconcile: every list's roster, including what was changed in Mailman behind the
 *    portal's back, at start, on the provisioning schedule and on demand.
 * The embedded engine's roster is the portal's own tables: it is no target (setup.ts).
 */
import type { Queryable } from '../../db/database.js';
import { findAccountRecordById } from '../../repositories/account-view.js';
import { findEligibleMembers, findMailingList, findSubscriptionChoices, listAllMailingLists, listMailingListsOfGroups, type MailingListRecord } from '../../repositories/mailing-lists.js';
import { findHeldGroups } from '../../repositories/groups.js';
import { eligibleGroups } from '@portal/api';
import { ListEngineError, NO_CHANGES, type Delivery, type ListEngine, type RosterChanges, type RosterEntry } from '../lists/engine.js';
import { emptyReport, plural, objectParts, ProvisioningError, type ProvisioningTarget, type ReconcileReport } from './target.js';

/** The kind of every lists target (the decisions' 'list:<id>' objects go to targets of this kind only). */
export const LISTS_KIND = 'lists';
const MAX_DRIFT_LINES = 200;

/** The list's subscribers as the portal sees them: eligible, subscribed, with their delivery. */
export async function wantedRoster(db: Queryable, list: MailingListRecord): Promise<RosterEntry[]> {
  const members = await findEligibleMembers(db, list, { subscribedOnly: true });
  return members.map((m) => ({ email: m.email.toLowerCase(), displayName: m.fullName, delivery: m.digest ? 'digest' : 'regular' }));
}

/** One list's roster at the engine made the portal's (a list the portal no longer has: nothing). */
async function applyList(engine: ListEngine, db: Queryable, listId: string): Promise<RosterChanges> {
  const list = await findMailingList(db, listId);
  if (!list) return { ...NO_CHANGES };
  return engine.reconcileList(list, await wantedRoster(db, list));
}

/** One account's address on every portal list made what the portal decides. */
async function applyAccount(engine: ListEngine, db: Queryable, accountId: number): Promise<RosterChanges> {
  const account = await findAccountRecordById(db, accountId);
  if (!account) return { ...NO_CHANGES };
  const wanted = new Map<string, Delivery>();
  if (account.active && !account.closed) {
    const held = await findHeldGroups(db, account.id);
    const names = new Set(held.map((h) => `${h.userGroupId}\u0000${h.groupName}`));
    const lists = await listMailingListsOfGroups(db, [...new Set(held.map((h) => h.userGroupId))]);
    const choices = await findSubscriptionChoices(db, account.id, lists.map((l) => l.id));
    for (const list of lists) {
      const eligible = eligibleGroups(list.userGroupId, list.permissionGroup).some((name) => names.has(`${list.userGroupId}\u0000${name}`));
      const choice = choices.get(list.id);
      if (eligible && (choice?.subscribed ?? list.automaticSubscription)) wanted.set(list.id, choice?.digest ? 'digest' : 'regular');
    }
  }
  const displayName = [account.first_name, account.last_name].filter(Boolean).join(' ');
  return engine.reconcileAddress({ email: account.email.toLowerCase(), displayName }, wanted, await listAllMailingLists(db));
}

/** A nesting changed in `group`: the lists of its user group (the part of its name before the first hyphen). */
async function applyGroup(engine: ListEngine, db: Queryable, group: string): Promise<void> {
  for (const list of await listMailingListsOfGroups(db, [group.split('-')[0] ?? ''])) {
    await engine.reconcileList(list, await wantedRoster(db, list));
  }
}

/** A failure in the words of the Provisioning page; the engine's own when it gives them. */
function failure(error: unknown): ProvisioningError {
  if (error instanceof ListEngineError) return new ProvisioningError(`the list server (Mailman) is not available: ${error.problem}`, error.unreachable);
  return new ProvisioningError(`the mailing lists could not be updated: ${error instanceof Error ? error.message : String(error)}`);
}

/** What differs on one list, in words; null when nothing does. */
function listDrift(listId: string, changes: RosterChanges): string | null {
  const parts: string[] = [];
  if (changes.subscribed > 0) parts.push(`${plural(changes.subscribed, 'subscriber')} missing`);
  if (changes.unsubscribed > 0) parts.push(`${changes.unsubscribed} too many`);
  if (changes.changedDelivery > 0) parts.push(`${changes.changedDelivery} with another delivery`);
  return parts.length === 0 ? null : `${listId}: ${parts.join(', ')}`;
}

/** The rosters of `engine` (one that keeps its own) as a target named after it ('mailman'). */
export function createListsTarget(engine: ListEngine): ProvisioningTarget {
  return {
    name: engine.name,
    kind: LISTS_KIND,
    async apply(object, db) {
      const { kind, key } = objectParts(object);
      try {
        if (kind === 'account') await applyAccount(engine, db, Number(key));
        else if (kind === 'list') await applyList(engine, db, key);
        else if (kind === 'group') await applyGroup(engine, db, key);
      } catch (error) {
        throw failure(error);
      }
    },
    /** Every list's roster; goes on past a failing list and throws the first failure at the end. */
    async reconcile(db, { dryRun }): Promise<ReconcileReport> {
      const report = emptyReport();
      let first: unknown;
      for (const list of await listAllMailingLists(db)) {
        try {
          const changes = await engine.reconcileList(list, await wantedRoster(db, list), { dryRun });
          report.created += changes.subscribed;
          report.removed += changes.unsubscribed;
          report.updated += changes.changedDelivery;
          const drift = listDrift(list.id, changes);
          if (drift !== null) {
            report.differences += changes.subscribed + changes.unsubscribed + changes.changedDelivery;
            if (report.drift.length < MAX_DRIFT_LINES) report.drift.push(drift);
          }
        } catch (error) {
          first ??= error;
        }
      }
      if (first !== undefined) throw failure(first);
      return report;
    },
    async close() {
      // Nothing is held open: fetch's connections are pooled by Node.
    },
  };
}
