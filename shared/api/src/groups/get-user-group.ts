import { defineEndpoint } from '../endpoint.js';
import { GroupIdParams, UserGroup } from './groups.js';

/**
 * GET /usergroups/{id}: a group with its additional permission groups and what the caller may do
 * in it. 404 'User group not found.' also for a hidden group the caller may not see.
 */
export const getUserGroup = defineEndpoint({
  method: 'GET',
  path: '/usergroups/:id',
  access: 'session',
  summary: 'A user group, its additional permission groups and the permissions the caller holds in it',
  params: GroupIdParams,
  response: UserGroup,
  errors: [404],
});
