/**
 * The request queues of this remote, one configuration per kind: where its list and details
 * live, their titles and permissions, how its rows read, and what a decision says and where it
 * leads (spec sections 2, 6 and 8; server/docs/adjudication.md). One list page, one details page
 * and one decision panel serve them all.
 */
import { type Decision, LIMITS, type Permission, type RequestDetailOf, type RequestKind } from '@portal/api';

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
  // The group itself is created by the groups work (issue 6): this says only what happened.
  userGroupApproved: (group: string) => `User group request for ${group} approved.`,
  userGroupDenied: (group: string) => `User group request for ${group} denied.`,
  mailingListApproved: (list: string) => `Mailing list request for ${list} approved.`,
  mailingListDenied: (list: string) => `Mailing list request for ${list} denied.`,
} as const;

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
    kind: 'new',
    listPath: '/list-account-requests',
    listTitle: 'New Account Requests',
    detailTitle: 'New Account Request',
    listPermission: 'LIST_NEW_ACCOUNT_REQUESTS',
    // Spec section 6 gives two readings for this link (one names VIEW_AUTH_CHANGE_REQUEST): this
    // is the other, the kind's own view permission, as every other list uses.
    viewPermission: 'VIEW_NEW_ACCOUNT_REQUEST',
    identifierLabel: 'Requested Username',
    showUsername: false,
    commentLimit: LIMITS.comment,
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
    kind: 'authchange',
    listPath: '/list-authentication-change-requests',
    listTitle: 'Authentication Change Requests',
    detailTitle: 'Authentication Change Request',
    listPermission: 'LIST_AUTH_CHANGE_REQUESTS',
    viewPermission: 'VIEW_AUTH_CHANGE_REQUEST',
    identifierLabel: 'Requested Authentication',
    formatIdentifier: requestedAuthentication,
    showUsername: true,
    commentLimit: LIMITS.reason,
    buttons: APPROVE_OR_DENY,
    feedback: (decision) => (decision === 'approved' ? FEEDBACK.authChangeApproved : FEEDBACK.authChangeDenied),
    returnTo: 'list',
    smartCardsOnly: true,
  },
  profilechange: {
    kind: 'profilechange',
    listPath: '/list-email-change-requests',
    listTitle: 'Email Change Requests',
    detailTitle: 'Email Change Request',
    listPermission: 'LIST_EMAIL_CHANGE_REQUESTS',
    viewPermission: 'VIEW_EMAIL_CHANGE_REQUEST',
    identifierLabel: 'New Email',
    showUsername: true,
    commentLimit: LIMITS.reason,
    buttons: APPROVE_OR_DENY,
    feedback: (decision) => (decision === 'approved' ? FEEDBACK.emailChangeApproved : FEEDBACK.emailChangeDenied),
    // Spec section 2: "Email change details: returns to the previous page."
    returnTo: 'previous',
  },
  mailinglist: {
    kind: 'mailinglist',
    listPath: '/list-mailing-list-requests',
    listTitle: 'Mailing List Requests',
    detailTitle: 'Mailing List Request',
    listPermission: 'LIST_MAILING_LIST_REQUESTS',
    viewPermission: 'VIEW_MAILING_LIST_REQUEST',
    identifierLabel: 'Mailing List',
    showUsername: false,
    commentLimit: LIMITS.reason,
    buttons: APPROVE_OR_DENY,
    feedback: (decision, r) => (decision === 'approved' ? FEEDBACK.mailingListApproved(r.list_id) : FEEDBACK.mailingListDenied(r.list_id)),
    returnTo: 'list',
  },
  usergroup: {
    kind: 'usergroup',
    listPath: '/list-user-group-requests',
    listTitle: 'User Group Requests',
    detailTitle: 'User Group Request',
    listPermission: 'LIST_USER_GROUP_REQUESTS',
    viewPermission: 'VIEW_USER_GROUP_REQUEST',
    identifierLabel: 'Group',
    showUsername: false,
    commentLimit: LIMITS.reason,
    buttons: APPROVE_OR_DENY,
    feedback: (decision, r) => (decision === 'approved' ? FEEDBACK.userGroupApproved(r.user_group) : FEEDBACK.userGroupDenied(r.user_group)),
    returnTo: 'list',
  },
  unlock: {
    kind: 'unlock',
    listPath: '/list-unlock-account-requests',
    listTitle: 'Unlock Account Requests',
    detailTitle: 'Unlock Account Request',
    listPermission: 'LIST_UNLOCK_REQUESTS',
    viewPermission: 'VIEW_UNLOCK_REQUEST',
    // The identifier is the username: the username column shows it.
    showUsername: true,
    commentLimit: LIMITS.reason,
    buttons: APPROVE_OR_DENY,
    feedback: (decision, r) => (decision === 'approved' ? FEEDBACK.unlockApproved(r.username) : FEEDBACK.unlockDenied(r.username)),
    returnTo: 'list',
  },
};

/** The queues in the order of the route table and the side menu. */
export const QUEUES: readonly KindConfig[] = [KINDS.new, KINDS.authchange, KINDS.profilechange, KINDS.mailinglist, KINDS.usergroup, KINDS.unlock];

/** The denied account requests: searched, not queued; their details are the new account's. */
export const DENIED = {
  path: '/list-denied-account-requests',
  title: 'Denied Account Requests',
  detailTitle: 'Denied Account Request',
} as const;
