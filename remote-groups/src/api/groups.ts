/**
 * The group calls (definitions in @portal/api, spec section 7 "Groups and memberships"): groups,
 * a group's details and its additional permission groups, members, membership requests and
 * their decisions, and the request for a new group. The list of groups is in groupList.ts.
 */
import * as api from '@portal/api';
import type {
  Membership,
  MembershipPage,
  MembershipRequestAnswer,
  MembershipRequestBody,
  RequestPage,
  UserGroup,
  UserGroupRequestBody,
  UserGroupUpdate,
} from '@portal/api';
import { membershipRequestKind, type MembershipRequestDetail } from '@portal/api/request-kinds/membership';
import { call } from '@portal/shared';

type Options = { readonly signal?: AbortSignal };

export function getGroup(id: string, options: Options = {}): Promise<UserGroup> {
  return call(api.getUserGroup, { params: { id } }, options);
}

export function updateGroup(id: string, body: UserGroupUpdate): Promise<UserGroup> {
  return call(api.updateUserGroup, { params: { id }, body });
}

export async function requestGroup(body: UserGroupRequestBody): Promise<void> {
  await call(api.requestUserGroup, { body });
}

export function addPermissionGroup(id: string, group: string): Promise<UserGroup> {
  return call(api.addPermissionGroup, { params: { id, group } });
}

export function deletePermissionGroup(id: string, group: string): Promise<UserGroup> {
  return call(api.deletePermissionGroup, { params: { id, group } });
}

export async function listGroupMailingLists(id: string, options: Options = {}) {
  return (await call(api.listGroupMailingLists, { params: { id } }, options)).rows;
}

export interface MemberQuery {
  readonly filter?: string;
  readonly role?: 'all' | 'admin' | 'team' | 'user';
  readonly start?: number;
}

export function searchMembers(id: string, query: MemberQuery, options: Options = {}): Promise<MembershipPage> {
  return call(api.searchMemberships, { body: { user_group: id, filter: query.filter ?? '', role: query.role ?? 'all', start_index: query.start ?? 0 } }, options);
}

/** One account's membership of a group; undefined when it holds none of its groups. */
export async function membershipOf(id: string, username: string, options: Options = {}): Promise<Membership | undefined> {
  return (await call(api.searchMemberships, { body: { user_group: id, username } }, options)).rows[0];
}

export function listMembershipRequests(id: string, start: number, options: Options = {}): Promise<RequestPage> {
  return call(api.listMembershipRequests, { query: { user_group: id, start_index: start } }, options);
}

export function getMembershipRequest(requestId: number, options: Options = {}): Promise<MembershipRequestDetail> {
  return call(api.getRequest(membershipRequestKind), { params: { id: requestId } }, options);
}

/** POST /requests/membership/new (request, join) or /update (update, leave). */
export function submitMembership(body: MembershipRequestBody): Promise<MembershipRequestAnswer> {
  const endpoint = body.updateIntent === 'request' || body.updateIntent === 'join' ? api.requestMembership : api.updateMembership;
  return call(endpoint, { body });
}

/** The add-user search (ADJUDICATE_MEMBERSHIP_REQUEST in the group). */
export function searchCandidates(id: string, term: string, start: number, options: Options = {}) {
  return call(api.searchGroupCandidates, { params: { id }, body: { term, start_index: start } }, options);
}

export function decideMembership(requestId: number, decision: 'approved' | 'denied' | 'incomplete', comment: string): Promise<MembershipRequestDetail> {
  if (decision === 'incomplete') return Promise.reject(new Error('Membership requests are approved or denied.'));
  return call(api.decideRequest(membershipRequestKind, decision), { params: { id: requestId }, body: { comment } });
}
