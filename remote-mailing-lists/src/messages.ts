/**
 * What the mailing list screens say. The spec's texts (section 8) are MAILING_LIST_MESSAGES of
 * @portal/api, word for word, defined once for the screens and the server; the texts below are
 * the portal's own (labels, explanations, the moderator's answers).
 */
import { type HeldAction, MAILING_LIST_MESSAGES, type PostingPermission } from '@portal/api';
import { ApiError, MESSAGES } from '@portal/shared';
import { errorText } from '@portal/shared/components';

export { MAILING_LIST_MESSAGES };

export const LIST_TEXT = {
  /** Spec section 2, the not-authorized view's text, for a list the caller does not moderate. */
  notAuthorized: MESSAGES.notAuthorized,
  heldLink: (count: number | undefined) => (count !== undefined && count > 0 ? `View held messages (${count})` : 'View held messages'),
  manageMembers: 'Manage members',
  allHeld: 'All held messages',
  requestList: 'Request a mailing list',
  discardDeferred: 'Discard all deferred messages',
  /** After the moderator's submit. */
  moderated: (accepted: number, discarded: number) =>
    `${accepted} ${accepted === 1 ? 'message' : 'messages'} accepted, ${discarded} discarded.`,
  nothingToSubmit: 'Every message is deferred: there is nothing to submit.',
  expand: 'Show the whole message',
  collapse: 'Show less',
  /** A moderator who does not hold the list's permission group (the server refuses their subscription). */
  notEligible: (permissionGroup: string) => `You moderate this list but are not in ${permissionGroup}, whose members it is for: you cannot subscribe to it.`,
  subscribed: (email: string) => `${email} subscribed.`,
  unsubscribed: (email: string) => `${email} unsubscribed.`,
} as const;

/** Spec section 9: who may post, one line each. */
export const POSTING_TEXT: Readonly<Record<PostingPermission, { label: string; explanation: string }>> = {
  closed: { label: 'Closed', explanation: 'Only subscribers may post; other posts are held for a moderator.' },
  open: { label: 'Open', explanation: 'Anyone may post, subscribed or not.' },
  announce: { label: 'Announce', explanation: 'Only moderators may post; other posts are held for a moderator.' },
};

/** Spec section 3: automatic_subscription true is opt-out. */
export const SUBSCRIPTION_TEXT = {
  optOut: { label: 'Opt-out', explanation: 'Every eligible member is subscribed and may leave.' },
  optIn: { label: 'Opt-in', explanation: 'Eligible members subscribe themselves.' },
} as const;

export const HELD_ACTION_LABELS: Readonly<Record<HeldAction, string>> = {
  defer: 'Defer',
  discard: 'Discard',
  accept: 'Accept',
  'always-accept': 'Always accept',
};

/** Spec section 8: an error 'Bad Request' means the session expired; any other shows the server's text. */
export function listErrorText(error: unknown): string {
  const text = errorText(error);
  return text === 'Bad Request' ? MAILING_LIST_MESSAGES.sessionExpired : text;
}

export const isForbidden = (error: unknown) => error instanceof ApiError && (error.status === 403 || error.code === 403);
