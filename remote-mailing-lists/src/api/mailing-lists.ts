/**
 * The mailing list calls (definitions in @portal/api, spec section 7 "Mailing lists"): the
 * caller's lists and their subscription, a list's eligible users, its held messages and the
 * moderators' actions, the request for a new list, and the group calls its form needs.
 */
import * as api from '@portal/api';
import type { HeldAction, HeldMessage, ListMember, MailingList, MailingListRequestBody, UserGroup, UserGroupSummary } from '@portal/api';
import { call } from '@portal/shared';

type Options = { readonly signal?: AbortSignal };

export async function listMailingLists(options: Options = {}): Promise<readonly MailingList[]> {
  return (await call(api.listMailingLists, {}, options)).rows;
}

/**
 * The caller's own subscription (spec section 4): subscribing sends is_regular_subscription true
 * (the digest off); the answer is the list as the caller now sees it.
 */
export function setSubscription(id: string, subscription: { subscribed: boolean; digest: boolean }): Promise<MailingList> {
  return call(api.updateListSubscription, {
    params: { id },
    body: { is_subscribed: subscription.subscribed, is_regular_subscription: !subscription.digest },
  });
}

/** A moderator subscribes or unsubscribes an eligible user (member administration). */
export async function setMemberSubscription(id: string, email: string, subscribed: boolean): Promise<void> {
  await call(api.updateListSubscription, { params: { id }, body: { is_subscribed: subscribed, is_regular_subscription: true, user_email: email } });
}

export async function listMembers(id: string, options: Options = {}): Promise<readonly ListMember[]> {
  return (await call(api.listListMembers, { params: { id } }, options)).rows;
}

export async function listHeldMessages(id: string, options: Options = {}): Promise<readonly HeldMessage[]> {
  return (await call(api.listHeldMessages, { params: { id } }, options)).rows;
}

/** Every message held on the lists the caller moderates (beyond the spec). */
export async function listAllHeldMessages(options: Options = {}): Promise<readonly HeldMessage[]> {
  return (await call(api.listAllHeldMessages, {}, options)).rows;
}

export interface ModerationChoice {
  readonly message: HeldMessage;
  readonly action: HeldAction;
}

/** POST /mailinglists/{id}/held: the actions chosen, deferred ones omitted (spec section 7). */
export function moderate(id: string, choices: readonly ModerationChoice[], discardDeferred: boolean) {
  const messages = choices
    .filter((choice) => choice.action !== 'defer')
    .map(({ message, action }) => ({ messageId: message.request_id, action, sender: message.sender }));
  return call(api.moderateHeldMessages, { params: { id }, body: { messages, discard_deferred: discardDeferred } });
}

export function requestMailingList(body: MailingListRequestBody) {
  return call(api.requestMailingList, { body });
}

/** The group a list is requested for (its permissions and additional permission groups). */
export function getGroup(id: string, options: Options = {}): Promise<UserGroup> {
  return call(api.getUserGroup, { params: { id } }, options);
}

/** The caller's groups: those where they may request a list are offered on /mailing-lists. */
export async function listGroups(options: Options = {}): Promise<readonly UserGroupSummary[]> {
  return (await call(api.listUserGroups, {}, options)).rows;
}
