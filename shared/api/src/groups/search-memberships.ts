import { defineEndpoint } from '../endpoint.js';
import { MembershipPage, MembershipSearch } from './groups.js';

/**
 * POST /memberships/search { user_group?, username?, filter?, role?, start_index?, max_results? }:
 * a group's members a page at a time (VIEW_MEMBERSHIP in the group), or one account's membership
 * of a group (its owner, or VIEW_MEMBERSHIP there). Name order: last name, first name, username.
 */
export const searchMemberships = defineEndpoint({
  method: 'POST',
  path: '/memberships/search',
  access: { groupPermission: 'VIEW_MEMBERSHIP' },
  summary: "A group's members, filtered and paged, or one account's membership",
  body: MembershipSearch,
  response: MembershipPage,
  errors: [404],
});
