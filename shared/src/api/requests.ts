/**
 * The request queues of the adjudicators (spec sections 3, 4 and 7; server/docs/adjudication.md,
 * "The request queues"): a kind's open requests a page at a time, one request, a decision on it,
 * and the search of denied new account requests.
 */
import type { Account, Address, Certificate, Supervisor } from './accounts.js';
import { SEARCH_PAGE_SIZE } from './accountAdmin.js';
import { apiRequest } from './client.js';

type Options = { readonly signal?: AbortSignal };

/** The kinds by their path segment. */
export const REQUEST_KINDS = ['new', 'profilechange', 'authchange', 'unlock', 'usergroup', 'mailinglist', 'membership'] as const;
export type RequestKind = (typeof REQUEST_KINDS)[number];

/** 'pending', 'incomplete' (the applicant owes an answer), 'approved' or 'denied'. */
export type RequestStatus = 'pending' | 'incomplete' | 'approved' | 'denied';

/** What an adjudicator may do with a request: the status it goes to. */
export type Decision = 'approved' | 'denied' | 'incomplete';

/** A row of a queue or of the denied search. */
export interface RequestRow {
  readonly id: number;
  readonly kind: RequestKind;
  /**
   * The kind's own: new → the requested username; profilechange → the new email; authchange →
   * 'token' or 'certificate'; unlock → the username; usergroup and membership → the group id;
   * mailinglist → the list address.
   */
  readonly identifier: string;
  readonly first_name: string;
  readonly last_name: string;
  readonly email: string;
  readonly username: string;
  readonly status: RequestStatus;
  /** ISO 8601. */
  readonly created: string;
  readonly updated: string;
}

export interface RequestPage {
  readonly rows: readonly RequestRow[];
  readonly has_more_results: boolean;
}

/** One entry of a request's history (oldest first). */
export interface RequestUpdate {
  readonly status: RequestStatus;
  readonly username: string;
  readonly created: string;
  readonly comment: string;
}

interface RequestDetailBase<K extends RequestKind> {
  readonly id: number;
  readonly kind: K;
  readonly status: RequestStatus;
  readonly username: string;
  /** new: the applicant's; profilechange: the new address; others: the account's. */
  readonly email: string;
  readonly first_name: string;
  readonly last_name: string;
  readonly reason: string;
  readonly created: string;
  readonly updated: string;
  readonly adjudicator: string | null;
  /** Who submitted it for the applicant (a surrogate); null: the applicant. */
  readonly submitted_by: string | null;
  readonly updates: readonly RequestUpdate[];
  /** The account the request is about (kinds about an existing account), else null. */
  readonly account: Account | null;
  /** What this caller may do now (empty: nothing). */
  readonly decisions: readonly Decision[];
}

export interface NewAccountRequestDetail extends RequestDetailBase<'new'> {
  readonly phone: string;
  readonly address: Partial<Address>;
  readonly company: string;
  readonly project: string;
  readonly supervisor: Partial<Supervisor>;
  /** The applicant presented a smart card, kept with the request. */
  readonly cac_eligible: boolean;
  readonly certificate: Certificate | null;
}

export interface EmailChangeRequestDetail extends RequestDetailBase<'profilechange'> {
  /** The account's address when the request was made (`email` is the new one). */
  readonly previous_email: string;
}

export interface AuthChangeRequestDetail extends RequestDetailBase<'authchange'> {
  /** The requested authentication: ['token'] or ['certificate']. */
  readonly authentication: readonly string[];
  readonly certificate: Certificate | null;
  /** The government sponsor of a change to a website token ('' when none). */
  readonly sponsor_email: string;
}

export type UnlockRequestDetail = RequestDetailBase<'unlock'>;

export interface UserGroupRequestDetail extends RequestDetailBase<'usergroup'> {
  readonly user_group: string;
  readonly name: string;
  readonly description: string;
  readonly open_access: boolean;
  /** 'None' or 'DoD'. */
  readonly memberConstraint: string;
  /** 'site-approved' or '{id}-admin'. */
  readonly visibility: string;
  /** Additional permission groups. */
  readonly groups?: readonly string[];
}

export interface MailingListRequestDetail extends RequestDetailBase<'mailinglist'> {
  readonly list_id: string;
  readonly user_group: string;
  readonly permission_group: string;
  readonly description: string;
  /** 'closed', 'open' or 'announce'. */
  readonly posting_permissions: string;
  /** True: members are subscribed and may opt out; false: they opt in. */
  readonly automatic_subscription: boolean;
}

export interface MembershipRequestDetail extends RequestDetailBase<'membership'> {
  readonly user_group: string;
  readonly join: readonly string[];
  readonly leave: readonly string[];
}

/** Each kind's RequestDetail. */
export interface RequestDetails {
  readonly new: NewAccountRequestDetail;
  readonly profilechange: EmailChangeRequestDetail;
  readonly authchange: AuthChangeRequestDetail;
  readonly unlock: UnlockRequestDetail;
  readonly usergroup: UserGroupRequestDetail;
  readonly mailinglist: MailingListRequestDetail;
  readonly membership: MembershipRequestDetail;
}

export type RequestDetailOf<K extends RequestKind> = RequestDetails[K];
export type RequestDetail = RequestDetails[RequestKind];

const requestPath = (kind: RequestKind, id: number | string) => `/requests/${kind}/${encodeURIComponent(String(id))}`;

/** GET /requests/{kind}?start_index=&max_results=30: a page of the kind's open requests, oldest first. */
export function listRequests(kind: RequestKind, startIndex: number, options: Options = {}): Promise<RequestPage> {
  const query = new URLSearchParams({ start_index: String(startIndex), max_results: String(SEARCH_PAGE_SIZE) });
  return apiRequest<RequestPage>('GET', `/requests/${kind}?${query}`, options);
}

/** GET /requests/{kind}/{id}: 404 'Request not found.' for an unknown id or one of another kind. */
export function getRequest<K extends RequestKind>(kind: K, id: number | string, options: Options = {}): Promise<RequestDetailOf<K>> {
  return apiRequest<RequestDetailOf<K>>('GET', requestPath(kind, id), options);
}

/** POST /requests/{kind}/{id}/{decision} { comment }: answers the request after the decision. */
export function decideRequest<K extends RequestKind>(
  kind: K,
  id: number | string,
  decision: Decision,
  comment: string,
  options: Options = {},
): Promise<RequestDetailOf<K>> {
  return apiRequest<RequestDetailOf<K>>('POST', `${requestPath(kind, id)}/${decision}`, { ...options, body: { comment } });
}

/** POST /requests/search-denied { term, start_index, max_results: 30 }: denied new account requests, newest first. */
export function searchDeniedRequests(term: string, startIndex: number, options: Options = {}): Promise<RequestPage> {
  return apiRequest<RequestPage>('POST', '/requests/search-denied', {
    ...options,
    body: { term: term.trim(), start_index: startIndex, max_results: SEARCH_PAGE_SIZE },
  });
}
