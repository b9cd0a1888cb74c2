/**
 * What every request has, whatever its kind (spec section 3): its statuses, the decisions on it,
 * a queue's row, its history, and the fields of its details that each kind's own are added to
 * (kinds.ts).
 */
import { Type, type Static } from 'typebox';
import { Account } from '../accounts/account.js';
import { closed, nullable } from '../common.js';

/** 'pending', 'incomplete' (the applicant owes an answer), 'approved' or 'denied'. */
export const REQUEST_STATUSES = ['pending', 'incomplete', 'approved', 'denied'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];
export const RequestStatusSchema = Type.Enum(REQUEST_STATUSES);

/** What an adjudicator may do with a request: the status it goes to. */
export const DECISIONS = ['approved', 'denied', 'incomplete'] as const;
export type Decision = (typeof DECISIONS)[number];

export const rowProperties = {
  id: Type.Integer(),
  /** The kind's key (its path segment, `/requests/{kind}`). */
  kind: Type.String(),
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

/** One entry of a request's history (oldest first). */
export const RequestUpdate = Type.Object(
  { status: RequestStatusSchema, username: Type.String(), created: Type.String(), comment: Type.String() },
  closed,
);
export type RequestUpdate = Static<typeof RequestUpdate>;

/** The fields of every request's details; each kind adds its own (kinds.ts, defineRequestKind). */
export const detailProperties = {
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
