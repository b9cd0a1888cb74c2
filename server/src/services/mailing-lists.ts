/**
 * Mailing lists (spec sections 2 to 9; server/docs/mailing-lists.md): the caller's lists with
 * their subscription, subscribing (oneself, or a member by a moderator), the eligible users, held
 * messages and the moderators' actions, and the request for a new list. Who may do what is
 * checked here: the routes only say that a signed-in caller is needed.
 *
 * What runs the lists (receiving, holding, delivering) is the list engine (lists/engine.ts,
 * PORTAL_LIST_ENGINE); who is eligible and each member's choice stay the portal's, and the
 * engine is told (a subscription change in its transaction: if the engine cannot be told,
 * nothing changes).
 *
 * Eligible: holding the list's permission group (directly or through another group; for a role
 * group, that role or a higher one: eligibleGroups). Moderator:
 * an admin of the list's user group, or named a moderator of the list (its requester is).
 */
import {
  eligibleGroups,
  fixedGroups,
  listNameProblem,
  MAILING_LIST_FORM_RULES,
  MAILING_LIST_MESSAGES,
  mailingListAddress,
  roleGroup,
  validateFields,
  type HeldMessage,
  type ListMember,
  type MailingList,
  type MailingListRequestBody,
  type ModerationBody,
  type SubscriptionBody,
} from '@portal/api';
import type { Queryable } from '../db/database.js';
import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError, type FieldErrors } from '../errors.js';
import { MESSAGES } from '../messages.js';
import { findAccountRecordById } from '../repositories/account-view.js';
import { findHeldGroups, findPermissionGroups } from '../repositories/groups.js';
import {
  findEligibleMembers,
  findMailingList,
  findModeratedLists,
  findSubscriptionChoices,
  listMailingListsOfGroups,
  lockListAddress,
  mailingListExists,
  saveSubscriptionChoice,
  type HeldMessageRecord,
  type MailingListRecord,
} from '../repositories/mailing-lists.js';
import { hasOpenMailingListRequest, insertRequest, insertRequestUpdate } from '../repositories/requests.js';
import type { Actor, SelfServiceContext } from './account-access.js';
import { requireInGroup, visibleGroup } from './groups.js';
import { embeddedListEngine } from './lists/embedded.js';
import type { ListEngine } from './lists/engine.js';

export { postMail } from './lists/post-mail.js';

/** The engine that runs the lists (server/docs/mailing-lists.md, "List engines"). */
const engineOf = (context: SelfServiceContext): ListEngine => context.listEngine ?? embeddedListEngine;

/** The first page of a queue; the moderators' page shows this many (oldest first). */
export const HELD_PAGE_SIZE = 100;

interface CallerView {
  eligible: boolean;
  moderator: boolean;
  subscribed: boolean;
  digest: boolean;
}

async function callerViews(db: Queryable, actor: Actor, lists: readonly MailingListRecord[]): Promise<Map<string, CallerView>> {
  const held = await findHeldGroups(db, actor.id);
  const names = new Set(held.map((h) => `${h.userGroupId}\u0000${h.groupName}`));
  const holds = (groupId: string, name: string) => names.has(`${groupId}\u0000${name}`);
  const ids = lists.map((l) => l.id);
  const [choices, moderated] = [await findSubscriptionChoices(db, actor.id, ids), await findModeratedLists(db, actor.id, ids)];
  const views = new Map<string, CallerView>();
  for (const list of lists) {
    const eligible = eligibleGroups(list.userGroupId, list.permissionGroup).some((name) => holds(list.userGroupId, name));
    const choice = choices.get(list.id);
    views.set(list.id, {
      eligible,
      moderator: holds(list.userGroupId, roleGroup(list.userGroupId, 'admin')) || moderated.has(list.id),
      subscribed: eligible && (choice?.subscribed ?? list.automaticSubscription),
      digest: choice?.digest ?? false,
    });
  }
  return views;
}

function listView(list: MailingListRecord, view: CallerView, heldCount?: number): MailingList {
  return {
    id: list.id,
    description: list.description,
    user_group: list.userGroupId,
    permission_group: list.permissionGroup,
    automatic_subscription: list.automaticSubscription,
    posting_permissions: list.postingPermissions,
    is_subscribed: view.subscribed,
    is_regular_subscription: !view.digest,
    is_moderator: view.moderator,
    is_eligible: view.eligible,
    ...(view.moderator && heldCount !== undefined ? { held_count: heldCount } : {}),
  };
}

/** GET /mailinglists: the lists of the caller's groups they are eligible for or moderate, with held counts for moderators. */
export async function listMailingLists(context: SelfServiceContext, actor: Actor): Promise<{ rows: MailingList[] }> {
  const groups = [...new Set((await findHeldGroups(context.db, actor.id)).map((h) => h.userGroupId))];
  const lists = await listMailingListsOfGroups(context.db, groups);
  const views = await callerViews(context.db, actor, lists);
  const shown = lists.filter((l) => views.get(l.id)!.eligible || views.get(l.id)!.moderator);
  const counts = await engineOf(context).heldCounts(context.db, shown.filter((l) => views.get(l.id)!.moderator).map((l) => l.id));
  return { rows: shown.map((l) => listView(l, views.get(l.id)!, counts.get(l.id) ?? 0)) };
}

/** The list as the caller sees it; 404 when it does not exist or they are neither eligible nor its moderator. */
async function visibleList(context: SelfServiceContext, actor: Actor, id: string): Promise<{ list: MailingListRecord; view: CallerView }> {
  const list = await findMailingList(context.db, id);
  if (!list) throw new NotFoundError(MAILING_LIST_MESSAGES.listNotFound);
  const view = (await callerViews(context.db, actor, [list])).get(list.id)!;
  if (!view.eligible && !view.moderator) throw new NotFoundError(MAILING_LIST_MESSAGES.listNotFound);
  return { list, view };
}

async function moderatedList(context: SelfServiceContext, actor: Actor, id: string): Promise<MailingListRecord> {
  const { list, view } = await visibleList(context, actor, id);
  if (!view.moderator) throw new ForbiddenError(MESSAGES.forbidden);
  return list;
}

export async function getMailingList(context: SelfServiceContext, actor: Actor, id: string): Promise<MailingList> {
  const { list, view } = await visibleList(context, actor, id);
  const counts = view.moderator ? await engineOf(context).heldCounts(context.db, [list.id]) : new Map<string, number>();
  return listView(list, view, counts.get(list.id) ?? 0);
}

/**
 * POST /mailinglists/{id}: the caller's own subscription, or with user_email (a moderator) a
 * member's. Subscribing sets the digest off (spec section 4); only eligible users are subscribed.
 */
export async function updateListSubscription(context: SelfServiceContext, actor: Actor, id: string, body: SubscriptionBody): Promise<MailingList> {
  const { list, view } = await visibleList(context, actor, id);
  const self = await findAccountRecordById(context.db, actor.id);
  const forOther = body.user_email !== undefined && body.user_email.trim().toLowerCase() !== self?.email.toLowerCase();
  let target: { accountId: number; subscribed: boolean; email: string; fullName: string } | undefined;
  if (forOther) {
    if (!view.moderator) throw new ForbiddenError(MESSAGES.forbidden);
    const email = (body.user_email ?? '').trim().toLowerCase();
    const member = (await findEligibleMembers(context.db, list)).find((m) => m.email.toLowerCase() === email);
    if (!member) throw InvalidInputError.ofFields({ user_email: MAILING_LIST_MESSAGES.notEligible(body.user_email ?? '') });
    target = { accountId: member.accountId, subscribed: member.subscribed, email: member.email, fullName: member.fullName };
  } else {
    if (!view.eligible) throw new InvalidInputError(MAILING_LIST_MESSAGES.notEligible(self?.email ?? actor.username));
    const fullName = [self?.first_name, self?.last_name].filter(Boolean).join(' ');
    target = { accountId: actor.id, subscribed: view.subscribed, email: self?.email ?? '', fullName };
  }
  const subscribing = body.is_subscribed && !target.subscribed;
  const choice = { subscribed: body.is_subscribed, digest: body.is_subscribed && !subscribing ? !body.is_regular_subscription : false };
  const member = { email: target.email.toLowerCase(), displayName: target.fullName };
  const accountId = target.accountId;
  // The engine is told in the choice's transaction: if it cannot be (Mailman down), nothing changes.
  await context.db.transaction(async (tx) => {
    await saveSubscriptionChoice(tx, list.id, accountId, choice, context.clock.now());
    await engineOf(context).setSubscription(list, member, choice.subscribed ? (choice.digest ? 'digest' : 'regular') : null);
  });
  return getMailingList(context, actor, list.id);
}

/** GET /mailinglists/{id}/members (moderators): every eligible user and whether they are subscribed. */
export async function listListMembers(context: SelfServiceContext, actor: Actor, id: string): Promise<{ rows: ListMember[] }> {
  const list = await moderatedList(context, actor, id);
  const members = await findEligibleMembers(context.db, list);
  return { rows: members.map((m) => ({ list_id: list.id, user_email: m.email, user_full_name: m.fullName, is_subscribed: m.subscribed })) };
}

const heldView = (m: HeldMessageRecord): HeldMessage => ({
  request_id: m.id,
  list_id: m.listId,
  sender: m.sender,
  hold_date: m.heldAt.toISOString(),
  // Kilobytes, rounded up to a tenth: a message is never 0 KB.
  original_size: Math.ceil(m.sizeBytes / 102.4) / 10,
  subject: m.subject,
  msg: m.text,
  reason: m.reason,
});

/** GET /mailinglists/{id}/held (moderators): the first page of the queue, oldest first. */
export async function listHeldMessages(context: SelfServiceContext, actor: Actor, id: string): Promise<{ rows: HeldMessage[] }> {
  const list = await moderatedList(context, actor, id);
  return { rows: (await engineOf(context).heldMessages(context.db, [list.id], HELD_PAGE_SIZE)).map(heldView) };
}

/** GET /moderation/held: the held messages of every list the caller moderates. */
export async function listAllHeldMessages(context: SelfServiceContext, actor: Actor): Promise<{ rows: HeldMessage[] }> {
  const { rows } = await listMailingLists(context, actor);
  const moderated = rows.filter((l) => l.is_moderator).map((l) => l.id);
  return { rows: (await engineOf(context).heldMessages(context.db, moderated, HELD_PAGE_SIZE)).map(heldView) };
}

/**
 * POST /mailinglists/{id}/held (moderators): accept (delivered to the subscribers), always-accept
 * (the same, and that sender's posts are accepted from now on), discard; with discard_deferred,
 * every message of the list not acted on is discarded too. The list engine does it (embedded: one
 * transaction, delivery through the outbox, the work growing with the messages named; Mailman:
 * its held-message actions).
 */
export async function moderateHeldMessages(
  context: SelfServiceContext,
  actor: Actor,
  id: string,
  body: ModerationBody,
): Promise<{ ok: true; accepted: number; discarded: number }> {
  const list = await moderatedList(context, actor, id);
  const at = context.clock.now();
  const acted = body.messages.flatMap((m) => (m.action === 'defer' ? [] : [{ messageId: m.messageId, action: m.action }]));
  return context.db.transaction(async (tx) => {
    const { accepted, discarded } = await engineOf(context).moderate(tx, list, acted, body.discard_deferred === true, at);
    return { ok: true as const, accepted, discarded };
  });
}

// ---------------------------------------------------------------------------------------------
// The request for a new list

/** POST /requests/mailinglist: SUBMIT_MAILING_LIST_REQUEST in the group; the form's rules again. */
export async function requestMailingList(context: SelfServiceContext, actor: Actor, body: MailingListRequestBody): Promise<{ ok: true; code: 200; list_id: string }> {
  const access = await visibleGroup(context.db, actor, body.user_group);
  requireInGroup(access, 'SUBMIT_MAILING_LIST_REQUEST');
  const groupId = access.group.id;
  const domain = context.config.email_domain;
  const fields: Record<string, string> = { ...validateFields(MAILING_LIST_FORM_RULES, { description: body.description, reason: body.reason }) };
  const nameProblem = listNameProblem(groupId, body.list_name, domain);
  if (nameProblem) fields.list_name = nameProblem;
  const groups = new Set([...fixedGroups(groupId), ...(await findPermissionGroups(context.db, groupId))]);
  if (!groups.has(body.permission_group)) fields.permission_group = MAILING_LIST_MESSAGES.permissionGroup(groupId);
  if (Object.keys(fields).length > 0) throw InvalidInputError.ofFields(fields as FieldErrors);
  const listId = mailingListAddress(groupId, body.list_name, domain);
  const account = await findAccountRecordById(context.db, actor.id);
  if (!account) throw new NotFoundError(MESSAGES.notSignedIn);
  const at = context.clock.now();
  await context.db.transaction(async (tx) => {
    // One list per address, and one open request for it.
    await lockListAddress(tx, listId);
    if ((await hasOpenMailingListRequest(tx, listId)) || (await mailingListExists(tx, listId))) throw new ConflictError(MAILING_LIST_MESSAGES.listExists(listId));
    const reason = body.reason.trim();
    const requestId = await insertRequest(tx, {
      kind: 'mailinglist',
      status: 'pending',
      accountId: account.id,
      username: account.username,
      email: account.email,
      reason,
      details: {
        list_id: listId,
        user_group: groupId,
        permission_group: body.permission_group,
        description: body.description.trim(),
        posting_permissions: body.posting_permissions,
        automatic_subscription: body.automatic_subscription,
      },
      submittedBy: null,
      createdAt: at,
    });
    await insertRequestUpdate(tx, { requestId, status: 'pending', username: account.username, comment: reason, createdAt: at });
  });
  return { ok: true, code: 200, list_id: listId };
}
