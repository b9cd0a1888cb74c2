/**
 * The request queues of this remote, one configuration per kind: where its list and details
 * live, their titles and permissions, how its rows read, and what a decision says and where it
 * leads (spec sections 2, 6 and 8; server/docs/adjudication.md). One list page, one details page
 * and one decision panel serve them all.
 */
import { DENIED_REQUESTS, listPermission, MAILING_LIST_MESSAGES, requestKindInfo, viewPermission, type Decision, type Permission, type RequestDetailOf, type RequestKind } from '@portal/api';

/** The kinds with a queue here (membership requests are decided in group administration). */
export type QueueKind = Exclude<RequestKind, 'membership'>;

/** Spec section 8's success feedback, word for word. */
export const FEEDBACK = {
  newApproved: (first: string, last: string) => `New account request APPROVED for ${first} ${last}`,
  newDenied: (first: string, last: string) => `New account request DENIED for ${first} ${last}`,
  moreInformation: "'Additional info needed' request sent",
  authChangeApproved: 'Authentication Change Request approved.',
  authChangeDenied: 'Authentication Change Request denied.',
  emailChangeApproved: 'Email change request approved.',
  emailChangeDenied: 'Email change request denied.',
  unlockApproved: (username: string) => `Account unlocked for ${username}.`,
  unlockDenied: (username: string) => `Unlock account request for ${username} denied.`,
  userGroupApproved: (group: string) => `New user group ${group} created.`,
  userGroupDenied: (group: string) => `User group request for ${group} denied.`,
  mailingListApproved: MAILING_LIST_MESSAGES.created,
  mailingListDenied: MAILING_LIST_MESSAGES.denied,
} as const;

/** What the shared table (@portal/api requests/kinds.ts) says of a queue. */
function fromTable<K extends QueueKind>(kind: K) {
  const info = requestKindInfo(kind);
  const queue = info.queue;
  if (!queue) throw new Error(`${kind} requests have no queue`);
  return {
    kind,
    listPath: queue.path,
    listTitle: queue.listTitle,
    detailTitle: queue.detailTitle,
    listPermission: listPermission(kind),
    viewPermission: viewPermission(kind),
    commentLimit: info.commentLimit,
    ...(queue.smartCardsOnly ? { smartCardsOnly: true as const } : {}),
  };
}

export interface KindConfig<K extends QueueKind = QueueKind> {
  readonly kind: K;
  /** The list's path; a request's details are at `${listPath}/{id}`. */
  readonly listPath: string;
  readonly listTitle: string;
  readonly detailTitle: string;
  readonly listPermission: Permission;
  /** Opens the details (the [details] link shows only with it). */
  readonly viewPermission: Permission;
  /**
   * The heading of the row's identifier column; absent when the identifier is the username,
   * which the username column already shows (unlock).
   */
  readonly identifierLabel?: string;
  /** How the identifier reads in the list (default: as given). */
  formatIdentifier?(identifier: string): string;
  /** Spec section 2: the username column of authentication change, email change and unlock. */
  readonly showUsername: boolean;
  /** The comment's limit (spec section 9: 1000 for a new account, 150 for the others). */
  readonly commentLimit: number;
  /** The buttons' labels, in the order shown. */
  readonly buttons: Readonly<Partial<Record<Decision, string>>>;
  /** The feedback after a decision. */
  feedback(decision: Decision, request: RequestDetailOf<K>): string;
  /** After a decision: the list, or back where the adjudicator came from (the list if unknown). */
  readonly returnTo: 'list' | 'previous';
  /** Spec section 2: the queue exists only with CAC support (its routes lead to /not-found without). */
  readonly smartCardsOnly?: true;
}

const APPROVE_OR_DENY = { approved: 'Approve', denied: 'Deny' } as const;

const requestedAuthentication = (identifier: string) =>
  identifier === 'certificate' ? 'CAC' : identifier === 'token' ? 'Website token' : identifier;

export const KINDS: { readonly [K in QueueKind]: KindConfig<K> } = {
  new: {
    ...fromTable('new'),
    // Spec section 6 gives two readings for this link (one names VIEW_AUTH_CHANGE_REQUEST): this
    // is the other, the kind's own view permission, as every other list uses.
    identifierLabel: 'Requested Username',
    showUsername: false,
    buttons: { approved: 'Approve New Account', denied: 'Deny New Account', incomplete: 'Request More Information' },
    feedback: (decision, r) =>
      decision === 'approved'
        ? FEEDBACK.newApproved(r.first_name, r.last_name)
        : decision === 'denied'
          ? FEEDBACK.newDenied(r.first_name, r.last_name)
          : FEEDBACK.moreInformation,
    returnTo: 'list',
  },
  authchange: {
    ...fromTable('authchange'),
    identifierLabel: 'Requested Authentication',
    formatIdentifier: requestedAuthentication,
    showUsername: true,
    buttons: APPROVE_OR_DENY,
    feedback: (decision) => (decision === 'approved' ? FEEDBACK.authChangeApproved : FEEDBACK.authChangeDenied),
    returnTo: 'list',
  },
  profilechange: {
    ...fromTable('profilechange'),
    identifierLabel: 'New Email',
    showUsername: true,
    buttons: APPROVE_OR_DENY,
    feedback: (decision) => (decision === 'approved' ? FEEDBACK.emailChangeApproved : FEEDBACK.emailChangeDenied),
    // Spec section 2: "Email change details: returns to the previous page."
    returnTo: 'previous',
  },
  mailinglist: {
    ...fromTable('mailinglist'),
    identifierLabel: 'Mailing List',
    showUsername: false,
    buttons: APPROVE_OR_DENY,
    feedback: (decision, r) => (decision === 'approved' ? FEEDBACK.mailingListApproved(r.list_id) : FEEDBACK.mailingListDenied(r.list_id)),
    returnTo: 'list',
  },
  usergroup: {
    ...fromTable('usergroup'),
    identifierLabel: 'Group',
    showUsername: false,
    buttons: APPROVE_OR_DENY,
    feedback: (decision, r) => (decision === 'approved' ? FEEDBACK.userGroupApproved(r.user_group) : FEEDBACK.userGroupDenied(r.user_group)),
    returnTo: 'list',
  },
  unlock: {
    ...fromTable('unlock'),
    // The identifier is the username: the username column shows it.
    showUsername: true,
    buttons: APPROVE_OR_DENY,
    feedback: (decision, r) => (decision === 'approved' ? FEEDBACK.unlockApproved(r.username) : FEEDBACK.unlockDenied(r.username)),
    returnTo: 'list',
  },
};

/** The queues in the order of the route table and the side menu. */
export const QUEUES: readonly KindConfig[] = [KINDS.new, KINDS.authchange, KINDS.profilechange, KINDS.mailinglist, KINDS.usergroup, KINDS.unlock];

/** The denied account requests: searched, not queued; their details are the new account's. */
export const DENIED = DENIED_REQUESTS;
