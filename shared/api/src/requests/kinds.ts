/**
 * The request kinds, once (spec sections 2, 3, 6 and 7): each kind's path segment in the API,
 * its permissions, the decisions it takes, its comment limit, the roles that work it, and where
 * its queue is in the portal. The server registers its routes from this table; the remote that
 * owns a kind builds its queue's pages from it (@portal/shared/requests) and declares its sidebar
 * entry in its package.json, which a test checks against it.
 */
import type { Permission } from '../permissions.js';
import { LIMITS } from '../rules.js';

/** 'pending', 'incomplete' (the applicant owes an answer), 'approved' or 'denied'. */
export const REQUEST_STATUSES = ['pending', 'incomplete', 'approved', 'denied'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

/** What an adjudicator may do with a request: the status it goes to. */
export const DECISIONS = ['approved', 'denied', 'incomplete'] as const;
export type Decision = (typeof DECISIONS)[number];

export interface RequestKindInfo {
  /** Its path segment (`/requests/{kind}`) and its key in this table. */
  readonly kind: string;
  /** The stem of the kind's LIST_…, VIEW_… and ADJUDICATE_… permissions. */
  readonly permission: Uppercase<string>;
  /** The decisions it takes, in the order the decision panel shows them. */
  readonly decisions: readonly Decision[];
  /** The comment box's limit (spec section 9: 1000 for a new account, 150 for the others). */
  readonly commentLimit: number;
  /** The platform roles granted its three permissions (spec section 6; a site admin holds every permission). */
  readonly workedBy: readonly QueueRole[];
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

/** The platform roles that may be given a queue (server/src/services/roles.ts). */
export type QueueRole = 'help-desk' | 'adjudicator';
const ADJUDICATORS = ['adjudicator'] as const satisfies readonly QueueRole[];

const APPROVE_OR_DENY = ['approved', 'denied'] as const satisfies readonly Decision[];

/**
 * The kinds, each once, by their path segment, in the order of the summary's counts (spec
 * section 3) and of the permissions (spec section 6). Everything else that names the kinds is derived
 * from this table: the kinds' list, the summary's counts (a kind with a queue is counted),
 * the permissions (@portal/api permissions.ts), the server's routes and roles (server/src/services/roles.ts).
 */
export const REQUEST_KIND_INFO = {
  authchange: {
    kind: 'authchange',
    permission: 'AUTH_CHANGE',
    decisions: APPROVE_OR_DENY,
    commentLimit: LIMITS.reason,
    workedBy: ADJUDICATORS,
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
    workedBy: ADJUDICATORS,
    queue: { path: '/list-email-change-requests', listTitle: 'Email Change Requests', detailTitle: 'Email Change Request' },
  },
  mailinglist: {
    kind: 'mailinglist',
    permission: 'MAILING_LIST',
    decisions: APPROVE_OR_DENY,
    commentLimit: LIMITS.reason,
    workedBy: ADJUDICATORS,
    queue: { path: '/list-mailing-list-requests', listTitle: 'Mailing List Requests', detailTitle: 'Mailing List Request' },
  },
  new: {
    kind: 'new',
    permission: 'NEW_ACCOUNT',
    decisions: ['approved', 'denied', 'incomplete'],
    commentLimit: LIMITS.comment,
    workedBy: ADJUDICATORS,
    queue: { path: '/list-account-requests', listTitle: 'New Account Requests', detailTitle: 'New Account Request' },
  },
  usergroup: {
    kind: 'usergroup',
    permission: 'USER_GROUP',
    decisions: APPROVE_OR_DENY,
    commentLimit: LIMITS.reason,
    workedBy: ADJUDICATORS,
    queue: { path: '/list-user-group-requests', listTitle: 'User Group Requests', detailTitle: 'User Group Request' },
  },
  unlock: {
    kind: 'unlock',
    permission: 'UNLOCK',
    decisions: APPROVE_OR_DENY,
    commentLimit: LIMITS.reason,
    workedBy: ['help-desk', 'adjudicator'],
    queue: { path: '/list-unlock-account-requests', listTitle: 'Unlock Account Requests', detailTitle: 'Unlock Account Request' },
  },
  membership: { kind: 'membership', permission: 'MEMBERSHIP', decisions: APPROVE_OR_DENY, commentLimit: LIMITS.reason, workedBy: ADJUDICATORS },
} as const satisfies { readonly [K in string]: RequestKindInfo & { readonly kind: K } };

export type RequestKind = keyof typeof REQUEST_KIND_INFO;
/** The kinds by their path segment (`/requests/{kind}`), in the table's order. */
export const REQUEST_KINDS = Object.keys(REQUEST_KIND_INFO) as RequestKind[];

/** The stem of a kind's permissions ('NEW_ACCOUNT' for 'new'). */
export type RequestKindKey = (typeof REQUEST_KIND_INFO)[RequestKind]['permission'];

/** The kinds with a queue, each counted in GET /requests as `total_{kind}`. */
export type SummaryKind = { [K in RequestKind]: (typeof REQUEST_KIND_INFO)[K] extends { readonly queue: object } ? K : never }[RequestKind];
export const SUMMARY_KINDS = REQUEST_KINDS.filter((kind): kind is SummaryKind => 'queue' in REQUEST_KIND_INFO[kind]);

/** A kind's entry in the table, with its optional fields (`queue`) visible whatever the kind. */
export const requestKindInfo = (kind: RequestKind): RequestKindInfo => REQUEST_KIND_INFO[kind];

export const listPermission = (kind: RequestKind): Permission => `LIST_${REQUEST_KIND_INFO[kind].permission}_REQUESTS`;
export const viewPermission = (kind: RequestKind): Permission => `VIEW_${REQUEST_KIND_INFO[kind].permission}_REQUEST`;
export const adjudicatePermission = (kind: RequestKind): Permission => `ADJUDICATE_${REQUEST_KIND_INFO[kind].permission}_REQUEST`;

/** The denied account requests: searched, not queued; their details are the new account's. */
export const DENIED_REQUESTS = {
  path: '/list-denied-account-requests',
  title: 'Denied Account Requests',
  detailTitle: 'Denied Account Request',
} as const;
