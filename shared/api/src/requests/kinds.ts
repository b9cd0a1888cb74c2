/**
 * The request kinds, once (spec sections 2, 3, 6 and 7): each kind's path segment in the API,
 * its permissions, the decisions it takes, its comment limit, and where its queue is in the
 * portal. The server registers its routes from this table and the adjudication remote builds its
 * pages from it (its package.json declares the sidebar's queues, checked against it).
 */
import type { Permission, RequestKindKey } from '../permissions.js';
import { LIMITS } from '../rules.js';

/** The kinds by their path segment (`/requests/{kind}`). */
export const REQUEST_KINDS = ['new', 'profilechange', 'authchange', 'unlock', 'usergroup', 'mailinglist', 'membership'] as const;
export type RequestKind = (typeof REQUEST_KINDS)[number];

/** 'pending', 'incomplete' (the applicant owes an answer), 'approved' or 'denied'. */
export const REQUEST_STATUSES = ['pending', 'incomplete', 'approved', 'denied'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

/** What an adjudicator may do with a request: the status it goes to. */
export const DECISIONS = ['approved', 'denied', 'incomplete'] as const;
export type Decision = (typeof DECISIONS)[number];

/** The kinds counted in GET /requests, by their field there. */
export const SUMMARY_KINDS = ['authchange', 'profilechange', 'mailinglist', 'new', 'usergroup', 'unlock'] as const;
export type SummaryKind = (typeof SUMMARY_KINDS)[number];

export interface RequestKindInfo {
  readonly kind: RequestKind;
  /** The stem of the kind's LIST_…, VIEW_… and ADJUDICATE_… permissions. */
  readonly permission: RequestKindKey;
  /** The decisions it takes, in the order the decision panel shows them. */
  readonly decisions: readonly Decision[];
  /** The comment box's limit (spec section 9: 1000 for a new account, 150 for the others). */
  readonly commentLimit: number;
  /** Its queue in the portal; absent for membership requests, decided in group administration. */
  readonly queue?: {
    /** The list's path; a request's details are at `${path}/{id}`. */
    readonly path: string;
    readonly listTitle: string;
    readonly detailTitle: string;
    /** Spec section 2: the queue exists only with CAC support. */
    readonly smartCardsOnly?: true;
  };
}

const APPROVE_OR_DENY: readonly Decision[] = ['approved', 'denied'];

export const REQUEST_KIND_INFO: { readonly [K in RequestKind]: RequestKindInfo & { readonly kind: K } } = {
  new: {
    kind: 'new',
    permission: 'NEW_ACCOUNT',
    decisions: ['approved', 'denied', 'incomplete'],
    commentLimit: LIMITS.comment,
    queue: { path: '/list-account-requests', listTitle: 'New Account Requests', detailTitle: 'New Account Request' },
  },
  authchange: {
    kind: 'authchange',
    permission: 'AUTH_CHANGE',
    decisions: APPROVE_OR_DENY,
    commentLimit: LIMITS.reason,
    queue: {
      path: '/list-authentication-change-requests',
      listTitle: 'Authentication Change Requests',
      detailTitle: 'Authentication Change Request',
      smartCardsOnly: true,
    },
  },
  profilechange: {
    kind: 'profilechange',
    permission: 'EMAIL_CHANGE',
    decisions: APPROVE_OR_DENY,
    commentLimit: LIMITS.reason,
    queue: { path: '/list-email-change-requests', listTitle: 'Email Change Requests', detailTitle: 'Email Change Request' },
  },
  mailinglist: {
    kind: 'mailinglist',
    permission: 'MAILING_LIST',
    decisions: APPROVE_OR_DENY,
    commentLimit: LIMITS.reason,
    queue: { path: '/list-mailing-list-requests', listTitle: 'Mailing List Requests', detailTitle: 'Mailing List Request' },
  },
  usergroup: {
    kind: 'usergroup',
    permission: 'USER_GROUP',
    decisions: APPROVE_OR_DENY,
    commentLimit: LIMITS.reason,
    queue: { path: '/list-user-group-requests', listTitle: 'User Group Requests', detailTitle: 'User Group Request' },
  },
  unlock: {
    kind: 'unlock',
    permission: 'UNLOCK',
    decisions: APPROVE_OR_DENY,
    commentLimit: LIMITS.reason,
    queue: { path: '/list-unlock-account-requests', listTitle: 'Unlock Account Requests', detailTitle: 'Unlock Account Request' },
  },
  membership: { kind: 'membership', permission: 'MEMBERSHIP', decisions: APPROVE_OR_DENY, commentLimit: LIMITS.reason },
};

export const listPermission = (kind: RequestKind): Permission => `LIST_${REQUEST_KIND_INFO[kind].permission}_REQUESTS`;
export const viewPermission = (kind: RequestKind): Permission => `VIEW_${REQUEST_KIND_INFO[kind].permission}_REQUEST`;
export const adjudicatePermission = (kind: RequestKind): Permission => `ADJUDICATE_${REQUEST_KIND_INFO[kind].permission}_REQUEST`;

/** The denied account requests: searched, not queued; their details are the new account's. */
export const DENIED_REQUESTS = {
  path: '/list-denied-account-requests',
  title: 'Denied Account Requests',
  detailTitle: 'Denied Account Request',
} as const;
