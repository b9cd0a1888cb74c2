/**
 * The adjudication engine (server/docs/adjudication.md, "The request queues"): the queues, a
 * request's detail and the decisions, for every kind registered in request-kinds/ (each kind's
 * module holds its permissions, its decisions, its detail fields, and each decision's effect and
 * mail). A decision is one transaction: the request row is locked and its status checked again,
 * so of two decisions at once exactly one wins; then the status, an update, the kind's effect
 * and the applicant's mail (outbox) are written together or not at all.
 */
import { embeddedListEngine } from './lists/embedded.js';
import {
  PAGE_SIZE,
  queuedKinds,
  type Decision,
  type RequestDetail,
  type RequestKind,
  type RequestPage,
  type RequestRow,
  type RequestStatus,
  type RequestSummary,
} from '@portal/api';
import type { Permission } from '@portal/api';
import { lengthAtMost, RULE_MESSAGES } from '@portal/api';
import { composeValidators, required, type Validator } from '@portal/api';
import { ADJUDICATION_MESSAGES } from '../adjudication-messages.js';
import type { Queryable } from '../db/database.js';
import { ConflictError, ForbiddenError, InvalidInputError } from '../errors.js';
import { findAccountRecordById } from '../repositories/account-view.js';
import {
  countPendingByKind,
  findRequest,
  findRequestUpdates,
  listOpenRequests,
  listPendingMembershipRequests,
  searchDeniedRequests,
  type Page,
  type RequestRowRecord,
} from '../repositories/request-queue.js';
import { insertRequestUpdate, setRequestStatus } from '../repositories/requests.js';
import { holds, isOwner, type Actor, type SelfServiceContext } from './account-access.js';
import { accountView } from './accounts.js';
import { requireInGroup, visibleGroup } from './groups.js';
import { enqueueMail } from './mail.js';
import { requestNotFound } from './request-kinds/common.js';
import { registeredKinds, requestKind, type RequestAccess, type RequestKindDefinition } from './request-kinds/index.js';
import { MESSAGES } from '../messages.js';

/** The request domain's names, for the routes and the tests (defined once in @portal/api). */
export { REQUEST_STATUSES, type Decision, type RequestKind, type RequestStatus } from '@portal/api';
export { registeredKinds, registerRequestKind, requestKind, type RequestKindDefinition } from './request-kinds/index.js';

export const listPermission = (kind: RequestKind): Permission => requestKind(kind).permissions.list;
export const viewPermission = (kind: RequestKind): Permission => requestKind(kind).permissions.view;
export const adjudicatePermission = (kind: RequestKind): Permission => requestKind(kind).permissions.adjudicate;

// ---------------------------------------------------------------------------------------------
// Views: @portal/api's types, so that what the service builds is what the routes' schemas answer

export function rowView(request: RequestRowRecord): RequestRow {
  return {
    id: request.id,
    kind: request.kind,
    identifier: requestKind(request.kind).identifier(request),
    first_name: request.firstName,
    last_name: request.lastName,
    email: request.accountEmail,
    username: request.username,
    status: request.status,
    created: request.created.toISOString(),
    updated: request.updated.toISOString(),
  };
}

/** GET /requests/{kind}: the kind's open requests, oldest first, a page at a time. */
export async function listRequests(context: SelfServiceContext, kind: RequestKind, page: Page): Promise<RequestPage> {
  const { rows, hasMore } = await listOpenRequests(context.db, kind, requestKind(kind).open, page);
  return { rows: rows.map(rowView), has_more_results: hasMore };
}

/**
 * GET /requests/membership: a group's pending requests (LIST_MEMBERSHIP_REQUESTS in it), or
 * without a group every group's (LIST_MEMBERSHIP_REQUESTS site-wide: the membership queue).
 * Here with the other queues rather than in memberships.ts, which the membership kind's module
 * uses to apply a decision: the rows come from the kinds, so memberships.ts must not need them.
 */
export async function listMembershipRequests(
  context: SelfServiceContext,
  actor: Actor,
  query: { user_group?: string | undefined; start_index?: number | undefined; max_results?: number | undefined },
): Promise<RequestPage> {
  const page = { startIndex: query.start_index ?? 0, maxResults: query.max_results ?? PAGE_SIZE };
  let userGroup: string | undefined;
  if (query.user_group !== undefined && query.user_group !== '') {
    const access = await visibleGroup(context.db, actor, query.user_group);
    requireInGroup(access, 'LIST_MEMBERSHIP_REQUESTS');
    userGroup = access.group.id;
  } else if (!holds(actor, 'LIST_MEMBERSHIP_REQUESTS')) {
    throw new ForbiddenError(MESSAGES.forbidden);
  }
  const { rows, hasMore } = await listPendingMembershipRequests(context.db, userGroup, page);
  return { rows: rows.map(rowView), has_more_results: hasMore };
}

/**
 * GET /requests: the pending requests of each queue (what waits for an adjudicator), counted only
 * for the queues the caller may list (LIST_{KIND}_REQUESTS); any other queue answers 0, so the
 * help desk learns nothing about queues it cannot open.
 */
export async function requestSummary(context: SelfServiceContext, actor: Actor): Promise<RequestSummary> {
  const counts = await countPendingByKind(context.db);
  const queued = queuedKinds(registeredKinds().map(({ declaration }) => declaration));
  const count = (kind: RequestKind) => (holds(actor, listPermission(kind)) ? (counts[kind] ?? 0) : 0);
  return Object.fromEntries(queued.map(({ kind }) => [`total_${kind}`, count(kind as RequestKind)])) as RequestSummary;
}

/** POST /requests/search-denied: denied new account requests matching every word of the term. */
export async function searchDenied(context: SelfServiceContext, term: string | undefined, page: Page): Promise<RequestPage> {
  const words = (term ?? '').trim().split(/\s+/).filter(Boolean).slice(0, 4);
  if (words.length === 0) throw InvalidInputError.ofFields({ term: RULE_MESSAGES.searchTermRequired });
  const { rows, hasMore } = await searchDeniedRequests(context.db, words, page);
  return { rows: rows.map(rowView), has_more_results: hasMore };
}

/** Whether the request is the caller's own: about their account, in their name, or submitted by them. */
function isOwnRequest(actor: Actor, request: RequestRowRecord): boolean {
  return (
    request.accountId === actor.id ||
    isOwner(actor, request.username) ||
    (request.submittedBy !== null && isOwner(actor, request.submittedBy))
  );
}

/**
 * What the caller may do with a request: by default what their session permissions say (the
 * routes checked them already); a kind decided inside a group (membership) asks its module.
 */
async function accessOf(db: Queryable, actor: Actor, request: RequestRowRecord): Promise<RequestAccess> {
  const definition = requestKind(request.kind);
  if (definition.access) return definition.access(db, actor, request);
  return { view: holds(actor, definition.permissions.view), adjudicate: holds(actor, definition.permissions.adjudicate) };
}

function decisionsFor(access: RequestAccess, actor: Actor, request: RequestRowRecord): Decision[] {
  const definition = requestKind(request.kind);
  if (!access.adjudicate || isOwnRequest(actor, request)) return [];
  if (!definition.decidableFrom.includes(request.status)) return [];
  return definition.decisions.filter((d) => d !== request.status);
}

async function detailView(db: Queryable, actor: Actor, request: RequestRowRecord, access: RequestAccess): Promise<RequestDetail> {
  const updates = await findRequestUpdates(db, request.id);
  const record = request.accountId === null ? undefined : await findAccountRecordById(db, request.accountId);
  // The kind's own fields come from the registry, which holds every kind and so types them
  // loosely; with the common fields they are the kind's RequestDetail by construction.
  return {
    ...requestKind(request.kind).detailFields(request),
    ...rowView(request),
    email: request.email,
    reason: request.reason,
    adjudicator: request.adjudicator,
    submitted_by: request.submittedBy,
    updates: updates.map((u) => ({ status: u.status, username: u.username, created: u.created.toISOString(), comment: u.comment })),
    account: record ? await accountView(db, record) : null,
    decisions: decisionsFor(access, actor, request),
  } as RequestDetail;
}

/** GET /requests/{kind}/{id}. */
export async function getRequest(context: SelfServiceContext, actor: Actor, kind: RequestKind, id: number): Promise<RequestDetail> {
  const request = await findRequest(context.db, kind, id);
  if (!request) throw requestNotFound();
  const access = await accessOf(context.db, actor, request);
  if (!access.view) throw new ForbiddenError(MESSAGES.forbidden);
  return detailView(context.db, actor, request, access);
}

// ---------------------------------------------------------------------------------------------
// Decisions

export interface DecisionInput {
  comment?: string | undefined;
  /** The portal's address for links in mail ('' leaves them relative). */
  publicUrl: string;
}

function commentRule(definition: RequestKindDefinition, decision: Decision): Validator {
  const limit = lengthAtMost(definition.commentLimit);
  return decision === 'incomplete' ? composeValidators(required(RULE_MESSAGES.commentNeeded), limit) : limit;
}

/** Why a decision cannot be taken on a request in this status (undefined: it can). */
function refusal(definition: RequestKindDefinition, status: RequestStatus, decision: Decision): string | undefined {
  if (status === decision) return ADJUDICATION_MESSAGES.alreadyInStatus(status);
  if (!definition.decidableFrom.includes(status)) return ADJUDICATION_MESSAGES.notDecidable(status);
  return undefined;
}

/**
 * POST /requests/{kind}/{id}/{decision}: the route has checked the kind's adjudicate permission.
 * The comment's rules (invalid input), then in one transaction: the request locked (not found),
 * not one's own (forbidden), decidable from its status (conflict), then status, update, the
 * kind's effect and mail.
 */
export async function decideRequest(
  context: SelfServiceContext,
  actor: Actor,
  kind: RequestKind,
  id: number,
  decision: Decision,
  input: DecisionInput,
): Promise<RequestDetail> {
  const definition = requestKind(kind);
  if (!definition.decisions.includes(decision)) throw requestNotFound();
  const message = commentRule(definition, decision)(input.comment);
  if (message) throw InvalidInputError.ofFields({ comment: message });
  const comment = (input.comment ?? '').trim();
  let decided: RequestRowRecord | undefined;
  const listEngine = context.listEngine ?? embeddedListEngine;
  try {
    const view = await context.db.transaction(async (tx) => {
      const request = await findRequest(tx, kind, id, true);
      if (!request) throw requestNotFound();
      decided = request;
      if (!(await accessOf(tx, actor, request)).adjudicate) throw new ForbiddenError(MESSAGES.forbidden);
      if (isOwnRequest(actor, request)) throw new ForbiddenError(ADJUDICATION_MESSAGES.ownRequest);
      const refused = refusal(definition, request.status, decision);
      if (refused) throw new ConflictError(refused);
      const at = context.clock.now();
      if (!(await setRequestStatus(tx, id, { status: decision, at, from: request.status, adjudicator: actor.username }))) {
        throw new ConflictError(ADJUDICATION_MESSAGES.notDecidable(request.status));
      }
      await insertRequestUpdate(tx, { requestId: id, status: decision, username: actor.username, comment, createdAt: at });
      const effect = await definition.decide(tx, request, decision, { actor, comment, at, publicUrl: input.publicUrl, listEngine });
      for (const mail of effect.mails) await enqueueMail(tx, mail, context.clock);
      const after = await findRequest(tx, kind, id);
      if (!after) throw requestNotFound();
      return detailView(tx, actor, after, await accessOf(tx, actor, after));
    });
    return view;
  } catch (error) {
    const conflict = decided === undefined ? undefined : definition.raceConflict?.(error, decided);
    throw conflict ?? error;
  }
}
