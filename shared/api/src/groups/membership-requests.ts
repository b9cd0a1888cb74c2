import { Type } from 'typebox';
import { closed } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { PageQuery, RequestPage } from '../requests/requests.js';
import { MembershipRequestAnswer, MembershipRequestBody } from './groups.js';

/**
 * GET /requests/membership?user_group=&start_index=: a group's pending membership requests, oldest
 * first (LIST_MEMBERSHIP_REQUESTS in the group); without user_group, every group's (site-wide).
 */
export const listMembershipRequests = defineEndpoint({
  method: 'GET',
  path: '/requests/membership',
  access: { groupPermission: 'LIST_MEMBERSHIP_REQUESTS' },
  summary: "A group's pending membership requests, oldest first",
  query: Type.Object({ ...PageQuery.properties, user_group: Type.Optional(Type.String({ maxLength: 100 })) }, closed),
  response: RequestPage,
  errors: [404],
});

/**
 * POST /requests/membership/new: a membership of a group the account does not belong to. Joining
 * an open-access group as a user, and an admin's add ('join'), apply at once; others wait for a
 * group admin.
 */
export const requestMembership = defineEndpoint({
  method: 'POST',
  path: '/requests/membership/new',
  access: 'session',
  summary: 'Requests a membership of a user group (own, surrogate or a group admin adding a user)',
  body: MembershipRequestBody,
  response: MembershipRequestAnswer,
  errors: [404, 409],
});

/** POST /requests/membership/update: a member's change or leave; leaving and notification changes apply at once. */
export const updateMembership = defineEndpoint({
  method: 'POST',
  path: '/requests/membership/update',
  access: 'session',
  summary: 'Requests a change to a membership, or leaves the group',
  body: MembershipRequestBody,
  response: MembershipRequestAnswer,
  errors: [404, 409],
});
