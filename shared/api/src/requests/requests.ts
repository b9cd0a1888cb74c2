/**
 * The request queues (server/docs/adjudication.md, "The request queues"): the summary counts, a
 * kind's open requests a page at a time, one request, a decision on it, and the search of
 * denied new account requests. Each kind's routes declare that kind's permissions.
 */
import { Type, type Static } from 'typebox';
import { closed, IdParams, MAX_PAGE_SIZE, Page } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import type { GroupPermission } from '../groups/model.js';
import { adjudicatePermission, listPermission, viewPermission, type RequestKindDefinition } from './kinds.js';
import { RequestRow, type Decision } from './model.js';

export const RequestPage = Page(RequestRow);
export type RequestPage = Static<typeof RequestPage>;

export const PageQuery = Type.Object(
  {
    start_index: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
    max_results: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: 30 })),
  },
  closed,
);

/** GET /requests/{kind}?start_index=&max_results=30: a page of the kind's open requests, oldest first. */
export const listRequests = (kind: RequestKindDefinition) =>
  defineEndpoint({
    method: 'GET',
    path: `/requests/${kind.kind}`,
    access: { permission: listPermission(kind) },
    summary: `The open ${kind.kind} requests, oldest first`,
    query: PageQuery,
    response: RequestPage,
  });

/** GET /requests/{kind}/{id}: 404 'Request not found.' for an unknown id or one of another kind. */
export const getRequest = <D extends RequestKindDefinition>(kind: D) =>
  defineEndpoint({
    method: 'GET',
    path: `/requests/${kind.kind}/:id`,
    access: kind.decidedInGroup ? { groupPermission: viewPermission(kind) as GroupPermission } : { permission: viewPermission(kind) },
    summary: `A ${kind.kind} request with its history and the decisions the caller may take`,
    params: IdParams,
    response: kind.detail as D['detail'],
    errors: [404],
  });

export const DecisionComment = Type.Object({ comment: Type.Optional(Type.String({ maxLength: 4000 })) }, closed);

/** POST /requests/{kind}/{id}/{decision} { comment }: answers the request after the decision. */
export const decideRequest = <D extends RequestKindDefinition>(kind: D, decision: Decision) =>
  defineEndpoint({
    method: 'POST',
    path: `/requests/${kind.kind}/:id/${decision}`,
    access: kind.decidedInGroup ? { groupPermission: adjudicatePermission(kind) as GroupPermission } : { permission: adjudicatePermission(kind) },
    summary: `Decides a ${kind.kind} request: ${decision}`,
    params: IdParams,
    body: DecisionComment,
    response: kind.detail as D['detail'],
    errors: [404, 409],
  });
