/**
 * The request queues (server/docs/adjudication.md, "The request queues"): the summary counts, a
 * kind's open requests a page at a time, one request, a decision on it, and the search of
 * denied new account requests. Each kind's routes declare that kind's permissions.
 */
import { Type, type Static, type TSchema } from 'typebox';
import { Account, Address, Certificate, Supervisor } from '../accounts/account.js';
import { closed, IdParams, MAX_PAGE_SIZE, nullable, Page } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { adjudicatePermission, DECISIONS, listPermission, REQUEST_KINDS, REQUEST_STATUSES, SUMMARY_KINDS, viewPermission, type Decision, type RequestKind, type SummaryKind } from './kinds.js';

export const RequestStatusSchema = Type.Enum(REQUEST_STATUSES);

/** GET /requests: how many requests wait in each queue (spec section 3, "Request summary counts"). */
export const RequestSummary = Type.Object(
  Object.fromEntries(SUMMARY_KINDS.map((kind) => [`total_${kind}`, Type.Integer()])) as Record<`total_${SummaryKind}`, ReturnType<typeof Type.Integer>>,
  closed,
);
export type RequestSummary = Static<typeof RequestSummary>;

const rowProperties = {
  id: Type.Integer(),
  kind: Type.Enum(REQUEST_KINDS),
  /**
   * The kind's own: new → the requested username; profilechange → the new email; authchange →
   * 'token' or 'certificate'; unlock → the username; usergroup and membership → the group id;
   * mailinglist → the list address.
   */
  identifier: Type.String(),
  first_name: Type.String(),
  last_name: Type.String(),
  email: Type.String(),
  username: Type.String(),
  status: RequestStatusSchema,
  /** ISO 8601. */
  created: Type.String(),
  updated: Type.String(),
};

/** A row of a queue or of the denied search. */
export const RequestRow = Type.Object(rowProperties, closed);
export type RequestRow = Static<typeof RequestRow>;
export const RequestPage = Page(RequestRow);
export type RequestPage = Static<typeof RequestPage>;

/** One entry of a request's history (oldest first). */
export const RequestUpdate = Type.Object(
  { status: RequestStatusSchema, username: Type.String(), created: Type.String(), comment: Type.String() },
  closed,
);
export type RequestUpdate = Static<typeof RequestUpdate>;

const baseProperties = {
  ...rowProperties,
  reason: Type.String(),
  adjudicator: nullable(Type.String()),
  /** Who submitted it for the applicant (a surrogate); null: the applicant. */
  submitted_by: nullable(Type.String()),
  updates: Type.Array(RequestUpdate),
  /** The account the request is about (kinds about an existing account), else null. */
  account: nullable(Account),
  /** What this caller may do now (empty: nothing). */
  decisions: Type.Array(Type.Enum(DECISIONS)),
};

/** A kind's details: the common fields and its own. Open, so that a kind may add fields before this table names them. */
const detail = <K extends RequestKind, P extends Record<string, TSchema>>(kind: K, properties: P) =>
  Type.Object({ ...baseProperties, kind: Type.Literal(kind), ...properties }, { additionalProperties: true });

export const RequestDetailSchemas = {
  new: detail('new', {
    phone: Type.String(),
    address: Type.Partial(Address),
    company: Type.String(),
    project: Type.String(),
    supervisor: Type.Partial(Supervisor),
    /** The applicant presented a smart card, kept with the request. */
    cac_eligible: Type.Boolean(),
    certificate: nullable(Certificate),
  }),
  profilechange: detail('profilechange', {
    /** The account's address when the request was made (`email` is the new one). */
    previous_email: Type.String(),
  }),
  authchange: detail('authchange', {
    /** The requested authentication: ['token'] or ['certificate']. */
    authentication: Type.Array(Type.String()),
    certificate: nullable(Certificate),
    /** The government sponsor of a change to a website token ('' when none). */
    sponsor_email: Type.String(),
  }),
  unlock: detail('unlock', {}),
  usergroup: detail('usergroup', {
    user_group: Type.String(),
    name: Type.String(),
    description: Type.String(),
    open_access: Type.Boolean(),
    /** 'None' or 'DoD'. */
    memberConstraint: Type.String(),
    /** 'site-approved' or '{id}-admin'. */
    visibility: Type.String(),
    /** Additional permission groups. */
    groups: Type.Optional(Type.Array(Type.String())),
    /** The services the group will use. */
    services: Type.Optional(Type.Array(Type.String())),
  }),
  mailinglist: detail('mailinglist', {
    list_id: Type.String(),
    user_group: Type.String(),
    permission_group: Type.String(),
    description: Type.String(),
    /** 'closed', 'open' or 'announce'. */
    posting_permissions: Type.String(),
    /** True: members are subscribed and may opt out; false: they opt in. */
    automatic_subscription: Type.Boolean(),
  }),
  membership: detail('membership', {
    user_group: Type.String(),
    join: Type.Array(Type.String()),
    leave: Type.Array(Type.String()),
    /** 'request', 'update', 'leave' or 'join' (spec section 4). */
    updateIntent: Type.Optional(Type.String()),
  }),
} as const;

export type RequestDetailOf<K extends RequestKind> = Static<(typeof RequestDetailSchemas)[K]>;
export type RequestDetail = { [K in RequestKind]: RequestDetailOf<K> }[RequestKind];

export const PageQuery = Type.Object(
  {
    start_index: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
    max_results: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: 30 })),
  },
  closed,
);

/** GET /requests/{kind}?start_index=&max_results=30: a page of the kind's open requests, oldest first. */
export const listRequests = <K extends RequestKind>(kind: K) =>
  defineEndpoint({
    method: 'GET',
    path: `/requests/${kind}`,
    access: { permission: listPermission(kind) },
    summary: `The open ${kind} requests, oldest first`,
    query: PageQuery,
    response: RequestPage,
  });

/** GET /requests/{kind}/{id}: 404 'Request not found.' for an unknown id or one of another kind. */
export const getRequest = <K extends RequestKind>(kind: K) =>
  defineEndpoint({
    method: 'GET',
    path: `/requests/${kind}/:id`,
    access: kind === 'membership' ? { groupPermission: 'VIEW_MEMBERSHIP_REQUEST' } : { permission: viewPermission(kind) },
    summary: `A ${kind} request with its history and the decisions the caller may take`,
    params: IdParams,
    response: RequestDetailSchemas[kind] as (typeof RequestDetailSchemas)[K],
    errors: [404],
  });

export const DecisionComment = Type.Object({ comment: Type.Optional(Type.String({ maxLength: 4000 })) }, closed);

/** POST /requests/{kind}/{id}/{decision} { comment }: answers the request after the decision. */
export const decideRequest = <K extends RequestKind>(kind: K, decision: Decision) =>
  defineEndpoint({
    method: 'POST',
    path: `/requests/${kind}/:id/${decision}`,
    access: kind === 'membership' ? { groupPermission: 'ADJUDICATE_MEMBERSHIP_REQUEST' } : { permission: adjudicatePermission(kind) },
    summary: `Decides a ${kind} request: ${decision}`,
    params: IdParams,
    body: DecisionComment,
    response: RequestDetailSchemas[kind] as (typeof RequestDetailSchemas)[K],
    errors: [404, 409],
  });

export type NewAccountRequestDetail = RequestDetailOf<'new'>;
export type EmailChangeRequestDetail = RequestDetailOf<'profilechange'>;
export type AuthChangeRequestDetail = RequestDetailOf<'authchange'>;
export type UnlockRequestDetail = RequestDetailOf<'unlock'>;
export type UserGroupRequestDetail = RequestDetailOf<'usergroup'>;
export type MailingListRequestDetail = RequestDetailOf<'mailinglist'>;
export type MembershipRequestDetail = RequestDetailOf<'membership'>;
