import { defineEndpoint } from '../endpoint.js';
import { GroupIdParams, UserGroup, UserGroupUpdate } from './groups.js';

/**
 * POST /usergroups/{id}: the group's details (EDIT_USER_GROUP in the group). Services already
 * used stay; the visibility changes only with HIDDEN_GROUP, the constraint only with smart-card
 * support. Choosing DoD removes the members who do not sign in with a smart card.
 */
export const updateUserGroup = defineEndpoint({
  method: 'POST',
  path: '/usergroups/:id',
  access: { groupPermission: 'EDIT_USER_GROUP' },
  summary: "Updates a user group's details",
  params: GroupIdParams,
  body: UserGroupUpdate,
  response: UserGroup,
  errors: [404, 409],
});
