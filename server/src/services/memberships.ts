/**
 * Memberships (server/docs/groups.md): a group's members, membership requests and what applies
 * at once, and applying a join and leave list (at once or on approval) in one transaction with
 * the history entry and the member's mail. The rules that keep a group admin inside their group
 * are here: only the group's own names, never a site role, never a service group the group does
 * not use, never the last admin gone.
 */
import {
  accountStatus,
  fixedGroups,
  GROUP_MESSAGES,
  LIMITS,
  membershipParts,
  membershipReasonRule,
  PAGE_SIZE,
  roleGroup,
  serviceGroups,
  serviceOfGroup,
  supportedServices,
  type Membership,
  type MembershipPage,
  type MembershipRequestAnswer,
  type MembershipRequestBody,
  type MembershipSearch,
} from '@portal/api';
import type { Queryable } from '../db/database.js';
import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError } from '../errors.js';
import { GROUP_ACTIONS, GROUP_SERVICE_MESSAGES } from '../group-messages.js';
import { addAccountUpdate } from '../repositories/accounts.js';
import { findAccountByUsername, findAccountRecordById, type AccountRecord } from '../repositories/account-view.js';
import {
  addMembership,
  countOtherAdmins,
  findHeldGroups,
  findPermissionGroups,
  GROUP_UNIQUE_INDEXES,
  removeMembership,
  searchMembers,
  type MemberRecord,
  type UserGroupRecord,
} from '../repositories/groups.js';
import { insertRequest, insertRequestUpdate } from '../repositories/requests.js';
import { isUniqueViolation } from '../repositories/unique-violation.js';
import { isOwner, type Actor, type SelfServiceContext } from './account-access.js';
import { requireInGroup, visibleGroup, type GroupAccess } from './groups.js';
import { enqueueMail } from './mail.js';
import type { Mail } from './mail.js';

function membershipView(group: UserGroupRecord, member: MemberRecord): Membership {
  const parts = membershipParts(group.id, [...member.direct, ...member.nested], group.services);
  return {
    user_group: group.id,
    username: member.username,
    first_name: member.firstName,
    last_name: member.lastName,
    email: member.email,
    status: accountStatus(member),
    direct: member.direct,
    nested: member.nested,
    role: parts.role,
    notification: parts.notification,
    special: parts.special,
    services: parts.services as Record<string, string | null>,
  };
}

/**
 * POST /memberships/search: a group's members (VIEW_MEMBERSHIP in the group), or with a username
 * that account's membership there (its owner may always ask for their own).
 */
export async function searchMemberships(context: SelfServiceContext, actor: Actor, search: MembershipSearch): Promise<MembershipPage> {
  const id = search.user_group?.trim() ?? '';
  if (id === '') throw InvalidInputError.ofFields({ user_group: 'Please name a user group.' });
  const access = await visibleGroup(context.db, actor, id);
  const username = search.username?.trim();
  const own = username !== undefined && isOwner(actor, username);
  // One account's membership: also for a surrogate about to change it (SUBMIT_SURROGATE_REQUEST in the group).
  const surrogate = username !== undefined && username !== '' && access.permissions.includes('SUBMIT_SURROGATE_REQUEST');
  if (!own && !surrogate) requireInGroup(access, 'VIEW_MEMBERSHIP');
  let accountId: number | undefined;
  if (username !== undefined && username !== '') {
    const account = own ? await findAccountRecordById(context.db, actor.id) : await findAccountByUsername(context.db, username);
    if (!account) return { rows: [], has_more_results: false, total: 0 };
    accountId = account.id;
  }
  const { rows, hasMore, total } = await searchMembers(context.db, access.group.id, {
    filter: search.filter ?? '',
    ...(search.role && search.role !== 'all' ? { role: search.role } : {}),
    ...(accountId === undefined ? {} : { accountId }),
    startIndex: search.start_index ?? 0,
    maxResults: search.max_results ?? PAGE_SIZE,
  });
  return { rows: rows.map((member) => membershipView(access.group, member)), has_more_results: hasMore, total };
}

// ---------------------------------------------------------------------------------------------
// Join and leave lists

/** What a join and leave list may name: the group's fixed names, its services' groups and its additional groups. */
async function groupNames(db: Queryable, group: UserGroupRecord): Promise<Set<string>> {
  const additional = await findPermissionGroups(db, group.id);
  return new Set([...fixedGroups(group.id), ...group.services.flatMap((service) => serviceGroups(group.id, service)), ...additional]);
}

/** The lists trimmed and checked: only this group's names, neither both joined and left, one role, one notification, one group per service. */
export async function checkedLists(db: Queryable, group: UserGroupRecord, body: Pick<MembershipRequestBody, 'join' | 'leave'>): Promise<{ join: string[]; leave: string[] }> {
  const names = await groupNames(db, group);
  const join = [...new Set(body.join.map((n) => n.trim()).filter(Boolean))];
  const leave = [...new Set(body.leave.map((n) => n.trim()).filter(Boolean))];
  for (const [field, list] of [['join', join], ['leave', leave]] as const) {
    const stranger = list.find((name) => !names.has(name));
    if (stranger) throw InvalidInputError.ofFields({ [field]: GROUP_SERVICE_MESSAGES.notAGroup(stranger, group.id) });
  }
  const both = join.find((name) => leave.includes(name));
  if (both) throw InvalidInputError.ofFields({ join: GROUP_SERVICE_MESSAGES.joinAndLeave(both) });
  const roles = fixedGroups(group.id).slice(0, 3);
  const notifications = fixedGroups(group.id).slice(3);
  if (join.filter((n) => roles.includes(n)).length > 1) throw InvalidInputError.ofFields({ join: GROUP_SERVICE_MESSAGES.oneRole });
  if (join.filter((n) => notifications.includes(n)).length > 1) throw InvalidInputError.ofFields({ join: GROUP_SERVICE_MESSAGES.oneNotification });
  for (const service of group.services) {
    if (join.filter((n) => serviceOfGroup(group.id, n) === service).length > 1) {
      throw InvalidInputError.ofFields({ join: GROUP_SERVICE_MESSAGES.oneServiceGroup(service) });
    }
  }
  return { join, leave };
}

/** Refuses joins for an account that is closed or locked, or that a DoD group cannot take. */
export function checkJoiner(group: UserGroupRecord, account: AccountRecord, join: readonly string[]): void {
  if (join.length === 0) return;
  if (account.closed) throw new ConflictError(GROUP_MESSAGES.accountClosed(account.username));
  if (!account.active) throw new ConflictError(GROUP_MESSAGES.accountLocked(account.username));
  if (group.member_constraint === 'DoD' && !account.authentication.includes('certificate')) throw new ConflictError(GROUP_SERVICE_MESSAGES.dodOnly(group.id));
}

/** Refuses at once a change that would leave the group without an admin (checked again when it applies). */
async function keepsAnAdmin(tx: Queryable, group: UserGroupRecord, accountId: number, held: readonly { groupName: string; direct: boolean }[], leave: readonly string[]): Promise<void> {
  const admin = roleGroup(group.id, 'admin');
  const adminThroughOtherGroup = held.some((h) => h.groupName === admin && !h.direct);
  if (!leave.includes(admin) || adminThroughOtherGroup) return;
  if ((await countOtherAdmins(tx, group.id, accountId)) === 0) throw new ConflictError(GROUP_SERVICE_MESSAGES.lastAdmin(group.id));
}

export interface Applied {
  joined: string[];
  left: string[];
}

/**
 * Applies the lists to the account's direct memberships (the group row locked by the caller's
 * transaction), writes the history entry, and refuses (undoing everything) when the group would
 * be left without an admin. A name held only through another group cannot be left here.
 */
export async function applyMembership(
  tx: Queryable,
  group: UserGroupRecord,
  account: AccountRecord,
  lists: { join: readonly string[]; leave: readonly string[] },
  by: { username: string; reason: string; at: Date },
): Promise<Applied> {
  const held = await findHeldGroups(tx, account.id, group.id);
  const direct = new Set(held.filter((h) => h.direct).map((h) => h.groupName));
  const joined = lists.join.filter((name) => !direct.has(name));
  const left = lists.leave.filter((name) => direct.has(name));
  for (const name of left) await removeMembership(tx, account.id, name);
  for (const name of joined) await addMembership(tx, group.id, account.id, name, by.at);
  const admin = roleGroup(group.id, 'admin');
  const wasAdmin = held.some((h) => h.groupName === admin);
  if (wasAdmin && left.includes(admin)) {
    const stillAdmin = (await findHeldGroups(tx, account.id, group.id)).some((h) => h.groupName === admin);
    if (!stillAdmin && (await countOtherAdmins(tx, group.id, account.id)) === 0) throw new ConflictError(GROUP_SERVICE_MESSAGES.lastAdmin(group.id));
  }
  if (joined.length > 0 || left.length > 0) {
    const what = [joined.length > 0 ? `joined ${joined.join(', ')}` : '', left.length > 0 ? `left ${left.join(', ')}` : ''].filter(Boolean).join('; ');
    await addAccountUpdate(tx, {
      accountId: account.id,
      username: by.username,
      active: account.active,
      action: GROUP_ACTIONS.membershipChanged,
      comment: `${group.id}: ${what}.${by.reason ? ` ${by.reason}` : ''}`.slice(0, 1000),
      at: by.at,
    });
  }
  return { joined, left };
}

/**
 * What a member's mail is about: a change someone else applied at once, or a decision on their
 * request, told by what the request asked (join, change, leave) rather than as "membership of X request".
 */
export type MembershipMailAbout = { readonly changed: true } | { readonly decision: 'approved' | 'denied'; readonly intent: string };

/** 'join WALK1', 'change your membership of WALK1', 'leave WALK1': what a request of this intent asked. */
function requested(intent: string, group: string): string {
  if (intent === 'leave') return `leave ${group}`;
  if (intent === 'update') return `change your membership of ${group}`;
  return `join ${group}`;
}

/** 'Your request to join WALK1 was approved', 'Your membership of WALK1 was changed' (with the group's name in the text). */
function membershipSentence(about: MembershipMailAbout, group: string): string {
  return 'changed' in about ? `Your membership of ${group} was changed` : `Your request to ${requested(about.intent, group)} was ${about.decision}`;
}

/** The member's mail about a change applied or decided. */
export function membershipMail(group: UserGroupRecord, account: AccountRecord, about: MembershipMailAbout, applied?: Applied, comment = ''): Mail {
  const lines = [`${membershipSentence(about, `${group.id} (${group.name})`)}.`];
  if (applied?.joined.length) lines.push(`Joined: ${applied.joined.join(', ')}`);
  if (applied?.left.length) lines.push(`Left: ${applied.left.join(', ')}`);
  if (comment) lines.push('', 'Comment:', comment);
  lines.push('', 'Membership changes can take up to 10 minutes to synchronize with website services, once approved by a group admin.');
  return { to: account.email, subject: membershipSentence(about, group.id), text: lines.join('\n') };
}

// ---------------------------------------------------------------------------------------------
// Membership requests

type Route = 'new' | 'update';

/** Which intents each route takes (spec section 4: request and join are new memberships; update and leave existing ones). */
const INTENTS: Record<Route, readonly MembershipRequestBody['updateIntent'][]> = { new: ['request', 'join'], update: ['update', 'leave'] };

/**
 * Whether a change may apply without a group admin's approval (server/docs/groups.md): one's own
 * leaving, stepping down to a lower role, and a member with a role changing the notification level, may; joining an open-access group as a user
 * may; a group admin (ADJUDICATE_MEMBERSHIP_REQUEST in the group) acting on someone else's
 * membership may. Anything else waits.
 */
function appliesAtOnce(
  access: GroupAccess,
  own: boolean,
  lists: { join: readonly string[]; leave: readonly string[] },
  direct: ReadonlySet<string>,
  hasRole: boolean,
): boolean {
  const { group } = access;
  // Someone else's membership changes at once only in a group admin's hands.
  if (!own) return access.permissions.includes('ADJUDICATE_MEMBERSHIP_REQUEST');
  const notifications = fixedGroups(group.id).slice(3);
  const roles = fixedGroups(group.id).slice(0, 3); // admin, team, user
  // Only a role the account holds directly is really left: naming one it does not hold steps down from nothing.
  const rankLeft = Math.min(...lists.leave.filter((name) => direct.has(name)).map((name) => roles.indexOf(name)).filter((i) => i >= 0));
  // Stepping down (a lower role for a higher one left) grants nothing new either. A notification
  // level mails the project's events: only a member with a role changes it without approval.
  const harmless = lists.join.every((name) => (notifications.includes(name) && hasRole) || (roles.includes(name) && roles.indexOf(name) > rankLeft));
  if (harmless) return true;
  return group.open_access && lists.join.every((name) => name === roleGroup(group.id, 'user') || notifications.includes(name));
}

/**
 * POST /requests/membership/new and /update. The caller acts on their own membership, or as a
 * surrogate (SUBMIT_SURROGATE_REQUEST in the group); 'join' (a group admin adding a user) needs
 * ADJUDICATE_MEMBERSHIP_REQUEST there. What applies at once is applied in the same transaction;
 * the rest is stored pending for a group admin.
 */
export async function submitMembership(
  context: SelfServiceContext,
  actor: Actor,
  route: Route,
  body: MembershipRequestBody,
): Promise<MembershipRequestAnswer> {
  if (!INTENTS[route].includes(body.updateIntent)) throw InvalidInputError.ofFields({ updateIntent: GROUP_SERVICE_MESSAGES.wrongIntent });
  const intent = body.updateIntent;
  const own = isOwner(actor, body.username.trim());
  const reasonProblem = membershipReasonRule(intent === 'request')(body.reason?.trim() ?? '');
  if (reasonProblem) throw InvalidInputError.ofFields({ reason: reasonProblem });
  try {
    return await context.db.transaction(async (tx) => {
      const access = await visibleGroup(tx, actor, body.user_group.trim(), true);
      const { group } = access;
      if (intent === 'join') {
        requireInGroup(access, 'ADJUDICATE_MEMBERSHIP_REQUEST');
        if (own) throw new ForbiddenError(GROUP_SERVICE_MESSAGES.ownAdd);
      } else if (!own) {
        requireInGroup(access, 'SUBMIT_SURROGATE_REQUEST');
      }
      const account = own ? await findAccountRecordById(tx, actor.id) : await findAccountByUsername(tx, body.username.trim());
      if (!account) throw new NotFoundError(GROUP_SERVICE_MESSAGES.accountNotFound);
      const lists = await checkedLists(tx, group, body);
      // A group may still use a service the portal no longer offers: its groups are left, never joined (the screens offer none).
      const supported = supportedServices(context.config);
      const notOffered = lists.join.map((name) => serviceOfGroup(group.id, name)).find((service) => service !== undefined && !supported.includes(service));
      if (notOffered) throw InvalidInputError.ofFields({ join: GROUP_SERVICE_MESSAGES.serviceNotOffered(notOffered) });
      if (intent === 'leave' && lists.join.length > 0) throw InvalidInputError.ofFields({ join: GROUP_SERVICE_MESSAGES.wrongIntent });
      if (lists.join.length === 0 && lists.leave.length === 0) throw InvalidInputError.ofFields({ join: GROUP_SERVICE_MESSAGES.nothingToChange });
      const held = await findHeldGroups(tx, account.id, group.id);
      // A direct member asks for a change, not a new membership; a member only through another group
      // (nested) may use either: the screens treat them as members, and they hold nothing they could leave here.
      const isMember = held.some((h) => h.direct);
      if (route === 'new' && isMember) throw new ConflictError(GROUP_SERVICE_MESSAGES.alreadyMember(account.username, group.id));
      if (route === 'update' && held.length === 0) throw new ConflictError(GROUP_SERVICE_MESSAGES.notMember(account.username, group.id));
      checkJoiner(group, account, lists.join);
      await keepsAnAdmin(tx, group, account.id, held, lists.leave);

      const reason =
        intent === 'join' ? GROUP_MESSAGES.addReason : intent === 'leave' ? body.reason?.trim() || GROUP_MESSAGES.leaveReason : (body.reason?.trim() ?? '');
      const at = context.clock.now();
      const directNames = new Set(held.filter((h) => h.direct).map((h) => h.groupName));
      // Leaving is one's own to do; a surrogate removes someone at once only as a group admin.
      const adjudicates = access.permissions.includes('ADJUDICATE_MEMBERSHIP_REQUEST');
      const now = intent === 'join' || (intent === 'leave' ? own || adjudicates : appliesAtOnce(access, own, lists, directNames, membershipParts(group.id, held.map((h) => h.groupName), []).role !== null));
      const id = await insertRequest(tx, {
        kind: 'membership',
        status: now ? 'approved' : 'pending',
        accountId: account.id,
        username: account.username,
        email: account.email,
        reason: reason.slice(0, LIMITS.text),
        details: { user_group: group.id, join: lists.join, leave: lists.leave, updateIntent: intent },
        submittedBy: own ? null : actor.username,
        adjudicator: now ? actor.username : null,
        createdAt: at,
      });
      await insertRequestUpdate(tx, { requestId: id, status: 'pending', username: actor.username, comment: reason, createdAt: at });
      if (now) {
        const applied = await applyMembership(tx, group, account, lists, { username: actor.username, reason, at });
        await insertRequestUpdate(tx, { requestId: id, status: 'approved', username: actor.username, comment: 'Applied at once.', createdAt: at });
        if (!own) await enqueueMail(tx, membershipMail(group, account, { changed: true }, applied), context.clock);
      }
      return { ok: true as const, code: 200 as const, id, status: now ? ('approved' as const) : ('pending' as const) };
    });
  } catch (error) {
    if (isUniqueViolation(error, GROUP_UNIQUE_INDEXES.pendingMembership)) {
      throw new ConflictError(GROUP_SERVICE_MESSAGES.membershipPending(body.username.trim(), body.user_group.trim()));
    }
    throw error;
  }
}

